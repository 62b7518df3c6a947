// Cards as the pages draw them: SVG card faces (corner indices and pips, court cards
// framed), drawn here from the code, no image files.  Codes are the API's canonical
// spelling (rank then suit letter, T for ten).  A face carries two drawings: the full
// face, and a compact one (a large rank over a large suit) that a small card shows
// instead (app.css: .card.mini), since pips and corner indices are unreadable there.
// The drawing is an image without a name; the card's name is on the element.

import { NS, svgEl } from "./svg.js";

export const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"];
export const SUITS = ["S", "H", "D", "C"];
const SUIT_NAME = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const RANK_NAME = { A: "ace", T: "10", J: "jack", Q: "queen", K: "king" };

/** Every card code, suit by suit (the grid's order). */
export const DECK = SUITS.flatMap((s) => RANKS.map((r) => r + s));

const shownRank = (code) => (code[0] === "T" ? "10" : code[0]);

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

// -- the drawing -----------------------------------------------------------------------

const W = 50;
const H = 70; // a card's proportions, 5:7

/** The suits' outlines in a 100 x 100 box. */
const SUIT_PATH = {
  H: "M50 92C22 68 2 50 2 29 2 13 14 3 28 3c10 0 18 6 22 15C54 9 62 3 72 3c14 0 26 10 26 26 0 21-20 39-48 63z",
  D: "M50 2 90 50 50 98 10 50z",
  S: "M50 2C60 24 98 40 98 64c0 14-11 23-23 23-9 0-16-5-20-12 1 10 5 17 13 23H32c8-6 12-13 13-23-4 7-11 12-20 12C13 87 2 78 2 64 2 40 40 24 50 2z",
  C: "M50 4a22 22 0 0 1 17 36 22 22 0 1 1 -10 38c1 8 5 14 11 20H32c6-6 10-12 11-20a22 22 0 1 1 -10-38A22 22 0 0 1 50 4z",
};

/** Where the pips of a number card go (x, y in the 50 x 70 face); those below the
 *  middle are drawn upside down, as printed. */
const COL = [17.5, 25, 32.5];
const ROW4 = [13, 27.7, 42.3, 57];
const PIPS = {
  2: [[25, 13], [25, 57]],
  3: [[25, 13], [25, 35], [25, 57]],
  4: [[COL[0], 13], [COL[2], 13], [COL[0], 57], [COL[2], 57]],
  5: [[COL[0], 13], [COL[2], 13], [25, 35], [COL[0], 57], [COL[2], 57]],
  6: [[COL[0], 13], [COL[2], 13], [COL[0], 35], [COL[2], 35], [COL[0], 57], [COL[2], 57]],
  7: [[COL[0], 13], [COL[2], 13], [25, 24], [COL[0], 35], [COL[2], 35], [COL[0], 57], [COL[2], 57]],
  8: [[COL[0], 13], [COL[2], 13], [25, 24], [COL[0], 35], [COL[2], 35], [25, 46], [COL[0], 57], [COL[2], 57]],
  9: [...ROW4.flatMap((y) => [[COL[0], y], [COL[2], y]]), [25, 35]],
  10: [...ROW4.flatMap((y) => [[COL[0], y], [COL[2], y]]), [25, 20.3], [25, 49.7]],
};

/** A suit symbol of ``size`` centred on (x, y), upside down when ``flip``. */
function pip(suit, x, y, size, flip = false) {
  const s = size / 100;
  const move = `translate(${x - size / 2} ${y - size / 2}) scale(${s})`;
  return svgEl("path", { d: SUIT_PATH[suit], class: "pip", transform: flip ? `rotate(180 ${x} ${y}) ${move}` : move });
}

function label(text, x, y, size, cls, family = SANS) {
  const t = svgEl("text", { x, y, "font-size": size, "text-anchor": "middle", class: cls, "font-family": family, "font-weight": 700 });
  t.textContent = text;
  return t;
}

const SANS = "DejaVu Sans, Verdana, sans-serif";
const SERIF = "Georgia, DejaVu Serif, serif";

/** The corner index (rank over suit), top left; the same turned round, bottom right. */
function index(code) {
  const rank = shownRank(code);
  const corner = svgEl("g", {}, label(rank, 6, 11.5, rank.length > 1 ? 8.5 : 10, "index"), pip(code[1], 6, 17.5, 6));
  const turned = corner.cloneNode(true);
  turned.setAttribute("transform", `rotate(180 ${W / 2} ${H / 2})`);
  return [corner, turned];
}

function middle(code) {
  const suit = code[1];
  const rank = code[0];
  if (rank === "A") return [pip(suit, 25, 35, 22)];
  if ("JQK".includes(rank)) {
    // a court card: a frame with its letter and suit (no portrait)
    return [
      svgEl("rect", { x: 13, y: 7, width: 24, height: 56, rx: 2, class: "frame", fill: "none", stroke: "currentColor",
        "stroke-width": 0.8, "stroke-opacity": 0.55 }),
      label(rank, 25, 34, 20, "court", SERIF),
      pip(suit, 25, 47, 12),
      pip(suit, 18, 12, 5), pip(suit, 32, 58, 5, true),
    ];
  }
  const n = rank === "T" ? 10 : Number(rank);
  return PIPS[n].map(([x, y]) => pip(suit, x, y, 8.5, y > 35.5));
}

/** The SVG drawing of a card's face: the full face (corner indices and pips, or a
 *  court card's frame), or the compact one (a large rank over a large suit). */
export function faceSvg(code, compact = false) {
  const rank = shownRank(code);
  const ink = isRed(code) ? "#b3261e" : "#111";
  return svgEl("svg", { viewBox: `0 0 ${W} ${H}`, width: W, height: H, fill: ink, color: ink },
    ...(compact ? [label(rank, 25, 30, rank.length > 1 ? 25 : 30, "index"), pip(code[1], 25, 50, 24)]
      : [...index(code), ...middle(code)]));
}

/** Each face as an image (a data: URL), made once per card and kind.  An image because
 *  a control's visible text must be part of its name (WCAG 2.5.3): drawn text in the
 *  control ("J", "J", "J" on a jack) would be read as its visible text; an image has none. */
const FACES = new Map();
export function faceUrl(code, compact = false) {
  const key = `${code}${compact ? "-compact" : ""}`;
  if (!FACES.has(key)) {
    const svg = new XMLSerializer().serializeToString(faceSvg(code, compact));
    FACES.set(key, `data:image/svg+xml,${encodeURIComponent(svg)}`);
  }
  return FACES.get(key);
}

function faceImg(url, kind) {
  const img = document.createElement("img");
  img.className = `face ${kind}`;
  img.alt = "";
  img.draggable = false;
  img.src = url;
  return img;
}

/** A card face element (span by default, or the given tag, e.g. "button"): both faces,
 *  of which app.css shows one (the compact face on a small card). */
export function cardEl(code, tag = "span") {
  const el = document.createElement(tag);
  el.className = "card" + (isRed(code) ? " red" : "");
  el.dataset.card = code;
  el.append(faceImg(faceUrl(code), "full"), faceImg(faceUrl(code, true), "compact"));
  if (tag === "span") {
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", cardName(code));
  } else {
    el.setAttribute("aria-label", controlName(code));
    if (controlName(code) !== cardName(code)) el.title = cardName(code);
  }
  return el;
}

const BACK = `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="${NS}" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}">`
  + `<rect x="4" y="4" width="${W - 8}" height="${H - 8}" rx="3" fill="none" stroke="#fff" stroke-width="1.5" stroke-opacity=".7"/></svg>`)}`;

/** A face-down card (a card another seat holds). */
export function backEl() {
  const el = document.createElement("span");
  el.className = "card back";
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", "a hidden card");
  el.append(faceImg(BACK, "full"));
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
