// Cards as the pages draw them: text faces (rank and suit symbol), no images.
// Codes are the API's canonical spelling (rank then suit letter, T for ten).

export const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"];
export const SUITS = ["S", "H", "D", "C"];
const SYMBOL = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
const SUIT_NAME = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const RANK_NAME = { A: "ace", T: "10", J: "jack", Q: "queen", K: "king" };

/** Every card code, suit by suit (the grid's order). */
export const DECK = SUITS.flatMap((s) => RANKS.map((r) => r + s));

const shownRank = (code) => (code[0] === "T" ? "10" : code[0]);

export function face(code) {
  return shownRank(code) + SYMBOL[code[1]];
}

/** The card in words: "ace of spades", "10 of hearts" (a screen reader says "ten"). */
export function cardName(code) {
  return `${RANK_NAME[code[0]] || code[0]} of ${SUIT_NAME[code[1]]}`;
}

/** A card control's name starts with what it shows, "J of spades", so a voice-control
 *  user can say what they see (WCAG 2.5.3, label in name); the words are its title. */
function controlName(code) {
  return `${shownRank(code)} of ${SUIT_NAME[code[1]]}`;
}

export function isRed(code) {
  return code[1] === "H" || code[1] === "D";
}

/** A card face element (span by default, or the given tag, e.g. "button"). */
export function cardEl(code, tag = "span") {
  const el = document.createElement(tag);
  el.className = "card" + (isRed(code) ? " red" : "");
  el.dataset.card = code;
  const rank = document.createElement("span");
  rank.className = "rank";
  rank.textContent = shownRank(code);
  const suit = document.createElement("span");
  suit.className = "suit";
  suit.textContent = SYMBOL[code[1]];
  suit.setAttribute("aria-hidden", "true");
  el.append(rank, suit);
  if (tag === "span") {
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", cardName(code));
  } else {
    el.setAttribute("aria-label", controlName(code));
    if (controlName(code) !== cardName(code)) el.title = cardName(code);
  }
  return el;
}

/** A face-down card (a card another seat holds). */
export function backEl() {
  const el = document.createElement("span");
  el.className = "card back";
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", "a hidden card");
  return el;
}

/** The words of a score's kind, as the API names it (fifteen, pair_royal ...). */
export function kindWords(kind) {
  return {
    thirty_one: "thirty-one", pair_royal: "pair royal", double_pair_royal: "double pair royal",
    last_card: "last card", his_heels: "his heels", nobs: "his nobs",
  }[kind] || kind.replace(/_/g, " ");
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}
