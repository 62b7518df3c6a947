// The scorer: four cards and the starter -> POST /v1/hands/score; five or six cards ->
// POST /v1/discards (the discard advisor).  The state is in the URL, so an analysis can
// be shared: ?hand=5H,5C,5S,JD&starter=5D&crib=0 (advisor: &players=2&dealer=1&model=tuned).
// A card from the grid goes to the hand (up to six) unless the user chose the starter
// ("Next card to: the starter", or the empty starter slot): the intent is explicit, so
// six clicks are a six-card hand, never four cards, a starter and one more.
import { post, say } from "./api.js";
import { RANKS, SUITS, cardEl, kindWords, el } from "./cards.js";
import { comboRows } from "./show.js";

const $ = (id) => document.getElementById(id);
const state = { hand: [], starter: null, crib: false, target: "hand", players: null, dealer: false, model: "tuned" };
let asked = 0; // answers to older questions are dropped

function readUrl() {
  const q = new URLSearchParams(location.search);
  const hand = (q.get("hand") || "").split(",").map((s) => s.trim()).filter(Boolean);
  state.hand = hand.slice(0, 6);
  state.starter = (q.get("starter") || "").trim() || null;
  state.crib = q.get("crib") === "1" || q.get("crib") === "true";
  state.players = q.get("players") ? Number(q.get("players")) : null;
  state.dealer = q.get("dealer") === "1" || q.get("dealer") === "true";
  state.model = q.get("model") === "random" ? "random" : "tuned";
  state.target = "hand";
}

function writeUrl() {
  const q = new URLSearchParams();
  if (state.hand.length) q.set("hand", state.hand.join(","));
  if (state.starter) q.set("starter", state.starter);
  q.set("crib", state.crib ? "1" : "0");
  if (state.hand.length > 4) {
    q.set("players", String(players()));
    q.set("dealer", state.dealer ? "1" : "0");
    q.set("model", state.model);
  }
  const url = `${location.pathname}?${q.toString().replace(/%2C/g, ",")}`;
  history.replaceState(null, "", url);
}

function players() {
  return state.players || (state.hand.length === 5 ? 3 : 2);
}

function chosen() {
  return new Set([...state.hand, state.starter].filter(Boolean).map((c) => c.toUpperCase()));
}

function buildGrid() {
  const grid = $("grid");
  for (const suit of SUITS) {
    const row = el("div", { class: "suit-row" });
    for (const rank of RANKS) {
      const code = rank + suit;
      const b = cardEl(code, "button");
      b.type = "button";
      b.addEventListener("click", () => pick(code));
      row.append(b);
    }
    grid.append(row);
  }
}

function pick(code) {
  if (state.target === "starter") {
    state.starter = code;
    state.target = "hand";
  } else if (state.hand.length < 6) {
    state.hand.push(code);
  }
  update();
}

function render() {
  const taken = chosen();
  const focused = document.activeElement;
  const buttons = [...$("grid").querySelectorAll("button")];
  for (const b of buttons) {
    b.disabled = taken.has(b.dataset.card) || (state.target === "hand" && state.hand.length >= 6);
  }
  if (focused && focused.disabled && buttons.includes(focused)) {
    // the card just chosen is disabled now: keyboard focus goes on to the next free card
    const i = buttons.indexOf(focused);
    const next = [...buttons.slice(i + 1), ...buttons.slice(0, i)].find((b) => !b.disabled);
    if (next) next.focus();
  }
  document.querySelector(`input[name="target"][value="${state.target}"]`).checked = true;
  const slots = $("hand-slots");
  slots.replaceChildren();
  state.hand.forEach((code, i) => slots.append(slotCard(code, () => { state.hand.splice(i, 1); state.target = "hand"; update(); })));
  for (let i = state.hand.length; i < 4; i++) {
    const next = i === state.hand.length && state.target === "hand";
    slots.append(el("span", { class: `slot${next ? " next" : ""}`, "aria-hidden": "true" }));
  }
  const st = $("starter-slot");
  st.replaceChildren(state.starter ? slotCard(state.starter, () => { state.starter = null; state.target = "starter"; update(); })
    : el("button", {
      type: "button", id: "choose-starter", class: `slot${state.target === "starter" ? " next" : ""}`, text: "?",
      "aria-label": "Choose the starter: the next card you pick", "aria-pressed": String(state.target === "starter"),
      onclick: () => { state.target = state.target === "starter" ? "hand" : "starter"; update(); },
    }));
  $("crib").checked = state.crib;
  $("hand-text").value = state.hand.join(" ");
  $("starter-text").value = state.starter || "";
  $("advisor-options").hidden = state.hand.length <= 4;
  $("players").value = String(players());
  $("dealer").checked = state.dealer;
  $("model").value = state.model;
}

function slotCard(code, remove) {
  const known = /^[A2-9TJQK][SHDC]$/.test(code);
  const b = known ? cardEl(code, "button") : el("button", { class: "card", text: code });
  b.type = "button";
  b.setAttribute("aria-label", `${b.getAttribute("aria-label") || code}: remove`);
  b.title = "Remove";
  b.addEventListener("click", remove);
  return b;
}

async function update() {
  render();
  writeUrl();
  const ask = ++asked;
  say($("error"), "");
  const n = state.hand.length;
  if (n === 4 && state.starter) {
    $("advice").hidden = true;
    $("hint").hidden = true;
    try {
      const body = await post("/v1/hands/score", { cards: state.hand, starter: state.starter, crib: state.crib });
      if (ask !== asked) return;
      state.hand = body.cards;
      state.starter = body.starter;
      render();
      writeUrl();
      showScore(body);
    } catch (err) {
      if (ask !== asked) return;
      $("result").hidden = true;
      say($("error"), err.message);
    }
    return;
  }
  $("result").hidden = true;
  if (n === 5 || n === 6) {
    say($("hint"), "");
    await advise(ask);
    return;
  }
  $("advice").hidden = true;
  const more = 4 - n;
  say($("hint"), hint(more), "info");
}

function hint(more) {
  if (state.target === "starter") return "Pick the starter from the grid.";
  if (more > 0) {
    return `Choose ${more} more card${more > 1 ? "s" : ""} for the hand${state.starter ? "" : ", then the starter"}.`;
  }
  return "Now the starter: switch \u201cNext card to\u201d to the starter (or press the empty starter slot) "
    + "and pick it. Or pick one or two more cards for the hand to ask the discard advisor.";
}

function showScore(body) {
  $("result").hidden = false;
  $("total").textContent = String(body.total);
  $("call").textContent = body.call ? `\u201c${body.call}\u201d` : "\u201cnineteen\u201d (no points)";
  $("combos").tBodies[0].replaceChildren(...comboRows(body));
  $("subtotals").tBodies[0].replaceChildren(...Object.entries(body.subtotals).map(([kind, pts]) =>
    el("tr", { "data-kind": kind }, el("th", { scope: "row", text: kindWords(kind) }), el("td", { class: "num", text: String(pts) }))));
}

const fmt = (x) => (typeof x === "number" ? x.toFixed(2) : "\u2013");

async function advise(ask) {
  try {
    const body = await post("/v1/discards", { cards: state.hand, players: players(), dealer: state.dealer, model: state.model });
    if (ask !== asked) return;
    $("advice").hidden = false;
    $("advice-model").textContent = `${body.choices.length} throws of ${state.hand.length} cards, ${players()} players, `
      + `best first by net (${body.model} model; `
      + `${state.dealer ? "your crib: its points are yours" : "the opponent's crib: its points count against you"})`
      + `${state.starter ? "; the starter is not used: it is cut after the discards" : ""}.`;
    const mini = (cards) => el("div", { class: "cards" }, ...cards.map((c) => { const m = cardEl(c); m.classList.add("mini"); return m; }));
    $("throws").tBodies[0].replaceChildren(...body.choices.map((ch) => el("tr", { "data-discard": ch.discard.join(",") },
      el("td", {}, mini(ch.discard)), el("td", {}, mini(ch.keep)),
      el("td", { class: "num" }, fmt(ch.hand.mean), el("span", { class: "range", text: ` ${ch.hand.min}\u2013${ch.hand.max}` })),
      el("td", { class: "num", text: fmt(ch.crib.mean) }),
      el("td", { class: "num net", text: fmt(ch.net) }))));
  } catch (err) {
    if (ask !== asked) return;
    $("advice").hidden = true;
    say($("error"), err.missing
      ? `The discard advisor needs POST /v1/discards, which this service does not offer yet (it answered ${err.status}). Choose four cards and a starter to count a hand.`
      : err.message);
  }
}

function init() {
  buildGrid();
  readUrl();
  for (const r of document.querySelectorAll('input[name="target"]')) {
    r.addEventListener("change", () => { state.target = r.value; render(); });
  }
  $("crib").addEventListener("change", () => { state.crib = $("crib").checked; update(); });
  $("dealer").addEventListener("change", () => { state.dealer = $("dealer").checked; update(); });
  $("players").addEventListener("change", () => { state.players = Number($("players").value); update(); });
  $("model").addEventListener("change", () => { state.model = $("model").value; update(); });
  $("clear").addEventListener("click", () => { state.hand = []; state.starter = null; state.target = "hand"; state.players = null; update(); });
  $("typed").addEventListener("submit", (ev) => {
    ev.preventDefault();
    state.hand = $("hand-text").value.split(/[\s,;]+/).filter(Boolean).slice(0, 6);
    state.starter = $("starter-text").value.trim() || null;
    state.target = "hand";
    update();
  });
  update();
}

init();
