// The scorekeeper: a board for a game at a real table.  It adds up what the players
// peg (their own counts) and asks POST /v1/matches/score for the result at the end.
// The game is kept in localStorage, so a reload finds it as it was.
import { post, say } from "./api.js";
import { el } from "./cards.js";
import { Board, COLORS, skunkMarks } from "./board.js";

const KEY = "cribbage.scorekeeper.v1";
const $ = (id) => document.getElementById(id);
const QUICK = [
  [1, "1", "a go or last card"], [2, "2", "fifteen, a pair or thirty-one"], [3, "3", "a run of three"],
  [4, "4", "a run of four"], [5, "5", "a run of five"], [6, "6", "a pair royal"],
  [8, "8", "a pair royal and a fifteen"], [12, "12", "a double pair royal"],
];
// No hand or crib counts 19, 25, 26 or 27 (RULES: the show).  The API rules on a count
// only with its cards (POST /v1/hands/score), which a table's players do not type in, so
// the page keeps this one fact of the show to refuse a count that cannot be.
const IMPOSSIBLE_COUNTS = new Set([19, 25, 26, 27]);
const MAX_COUNT = 29;
let game = null; // {mode, target, names, firstDealer, selected, entries: [{type: "peg"|"deal", side, points, what}], result}
let board = null;

const load = () => { try { return JSON.parse(localStorage.getItem(KEY) || "null"); } catch { return null; } };
const save = () => { if (game) localStorage.setItem(KEY, JSON.stringify(game)); else localStorage.removeItem(KEY); };

function players(g = game) { return g.mode === "teams" ? 4 : Number(g.mode); }
function sideCount(g = game) { return g.mode === "3" ? 3 : 2; }
function sideOf(p) { return game.mode === "teams" ? p % 2 : p; }
function sideName(side) {
  return game.mode === "teams" ? `${game.names[side]} & ${game.names[side + 2]}` : game.names[side];
}

/** Each side's front and back pegs from the entries (back: the front before its last peg). */
function pegs() {
  const sides = Array.from({ length: sideCount() }, () => ({ front: 0, back: 0 }));
  for (const e of game.entries) {
    if (e.type !== "peg" || e.points === 0) continue; // a nineteen moves no peg
    const s = sides[e.side];
    s.back = s.front;
    s.front = Math.min(game.target, s.front + e.points);
  }
  return sides;
}

function dealer() {
  const deals = game.entries.filter((e) => e.type === "deal").length;
  return (game.firstDealer + deals) % players();
}

function finished(sides = pegs()) { return sides.some((s) => s.front >= game.target); }

// -- setup ---------------------------------------------------------------------------

function setupNames() {
  const mode = $("mode").value;
  const n = mode === "teams" ? 4 : Number(mode);
  const old = [...$("names").querySelectorAll("input")].map((i) => i.value);
  const defaults = ["Alice", "Bob", "Carol", "Dan"];
  $("names").replaceChildren(...Array.from({ length: n }, (_, i) => el("label", {},
    mode === "teams" ? `Player ${i + 1} (team ${i % 2 === 0 ? "A" : "B"})` : `Player ${i + 1}`,
    el("input", { type: "text", id: `name-${i}`, value: old[i] || defaults[i], size: 10, required: true, maxlength: 20 }))));
  const fd = $("first-dealer");
  fd.replaceChildren(...Array.from({ length: n }, (_, i) => el("option", { value: i, text: old[i] || defaults[i] })));
}

function start(ev) {
  ev.preventDefault();
  const mode = $("mode").value;
  const n = mode === "teams" ? 4 : Number(mode);
  game = {
    v: 1, mode, target: Number($("target").value),
    names: Array.from({ length: n }, (_, i) => $(`name-${i}`).value.trim() || `Player ${i + 1}`),
    firstDealer: Number($("first-dealer").value), selected: 0, entries: [], result: null,
  };
  save();
  show();
}

// -- the game ------------------------------------------------------------------------

function show() {
  $("setup").hidden = !!game;
  $("game").hidden = !game;
  if (!game) { setupNames(); return; }
  board = new Board($("board"), sideCount(), game.target, skunkMarks(game.target));
  render();
}

function render() {
  const sides = pegs();
  const focusedSide = $("sides").contains(document.activeElement) ? document.activeElement.dataset.side : null;
  board.set(sides.map((s, i) => ({ ...s, name: sideName(i) })));
  const d = dealer();
  const over = finished(sides);
  $("deal-info").textContent = `${game.names[d]} deals; the crib is ${game.mode === "teams" ? `team ${sideName(sideOf(d))}'s` : `${game.names[d]}'s`}.`;
  $("sides").replaceChildren(...sides.map((s, i) => el("button", {
    type: "button", class: "side", role: "radio", "aria-checked": String(game.selected === i), "data-side": i,
    onclick: () => { game.selected = i; save(); render(); },
  }, el("div", {}, el("span", { class: `swatch ${COLORS[i]}`, "aria-hidden": "true" }), " ", sideName(i)),
  el("div", { class: "score", "data-score": i, text: String(s.front) }),
  el("div", { class: "tags", text: `back peg ${s.back}${sideOf(d) === i ? " \u00b7 deals" : ""}` }))));
  if (focusedSide !== null) $("sides").querySelector(`[data-side="${focusedSide}"]`).focus();
  $("who").textContent = sideName(game.selected);
  for (const b of $("pad").querySelectorAll("button")) b.disabled = over;
  $("count-form").querySelector("button").disabled = over;
  $("next-deal").disabled = over;
  $("undo").disabled = game.entries.length === 0;
  const log = $("log");
  log.replaceChildren(...game.entries.map((e, i) => [e, i]).reverse().map(([e]) => el("li", {
    text: e.type === "deal" ? `${game.names[e.dealer]}'s deal is done` : `${sideName(e.side)} +${e.points}${e.what ? ` (${e.what})` : ""}`,
  })));
  $("result").hidden = !over;
  if (over && game.result === null) scoreMatch(sides);
  else if (over) showResult();
}

function peg(side, points, what) {
  if (finished()) return;
  game.entries.push({ type: "peg", side, points, what });
  save();
  say($("error"), "");
  render();
  $("live").textContent = `${sideName(side)} pegs ${points}${what ? ` (${what})` : ""}: ${pegs()[side].front}.`;
}

async function scoreMatch(sides) {
  const scores = sides.map((s) => s.front);
  const leader = scores.indexOf(Math.max(...scores));
  game.result = { pending: true };
  $("result-text").textContent = `${sideName(leader)} reached ${game.target}.`;
  try {
    // The board draws the double-skunk line (61) on a 121 board: count it (its game
    // points are the API's default); a 61 game has no double skunk.
    const options = game.target === 121 ? { double_skunk: true } : {};
    const body = await post("/v1/matches/score", { games: [{ scores }], target: game.target, ...options });
    if (!game || !game.result || !game.result.pending) return; // undone meanwhile
    game.result = { scores, answer: body.games[0], totals: body.totals };
  } catch (err) {
    if (!game || !game.result || !game.result.pending) return;
    game.result = { scores, error: err.missing
      ? `${sideName(leader)} reached ${game.target}. The result (win, skunk, double skunk) comes from POST /v1/matches/score, which this service does not offer yet (it answered ${err.status}).`
      : `${sideName(leader)} reached ${game.target}. ${err.message}` };
  }
  save();
  showResult();
}

const RESULT_WORDS = { win: "a win", skunk: "a skunk", double_skunk: "a double skunk" };

function showResult() {
  const r = game.result;
  if (!r || r.pending) return;
  if (r.error) { $("result-text").textContent = r.error; return; }
  const g = r.answer;
  const points = g.game_points[g.winner];
  const losers = g.losers.map((l) => `${sideName(l.side)} ${l.score}: ${RESULT_WORDS[l.result] || l.result}`);
  $("result-text").textContent = `${sideName(g.winner)} ${game.mode === "teams" ? "win" : "wins"}, ${RESULT_WORDS[g.result] || g.result} `
    + `(${points} game point${points === 1 ? "" : "s"}, spread ${g.spread[g.winner]}). ${losers.join("; ")}.`;
  $("result").dataset.result = g.result;
}

function init() {
  $("mode").addEventListener("change", setupNames);
  $("setup-form").addEventListener("submit", start);
  $("pad").append(...QUICK.map(([n, label, what]) => el("button", {
    type: "button", "aria-label": `Peg ${n}: ${what}`, title: what, "data-points": n, text: `+${label}`,
    onclick: () => peg(game.selected, n),
  })), el("button", {
    type: "button", id: "heels", title: "his heels: a jack turned as the starter, 2 to the dealer",
    text: "His heels +2", onclick: () => peg(sideOf(dealer()), 2, "his heels"),
  }));
  $("count-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const input = $("count");
    const n = Number(input.value);
    if (!Number.isInteger(n) || n < 0 || n > MAX_COUNT || input.value === "") {
      say($("error"), `A hand or crib count is a whole number from 0 to ${MAX_COUNT}.`);
      input.focus();
      return;
    }
    if (IMPOSSIBLE_COUNTS.has(n)) {
      say($("error"), `No hand or crib counts ${n} (19, 25, 26 and 27 cannot be made): count it again.`
        + `${n === 19 ? " A \u201cnineteen\u201d, no points, is entered as 0." : ""}`);
      input.focus();
      return;
    }
    input.value = "";
    say($("error"), "");
    if (n === 0) {
      game.entries.push({ type: "peg", side: game.selected, points: 0, what: "nineteen: no points" });
      save(); render();
      $("live").textContent = `${sideName(game.selected)}: nineteen, no points.`;
      return;
    }
    peg(game.selected, n, "count");
  });
  $("undo").addEventListener("click", () => {
    game.entries.pop();
    game.result = null;
    save(); render();
    $("live").textContent = "Undone.";
  });
  $("next-deal").addEventListener("click", () => {
    game.entries.push({ type: "deal", dealer: dealer() });
    save(); render();
    $("live").textContent = `${game.names[dealer()]} deals.`;
  });
  $("new-game").addEventListener("click", () => {
    if (!confirm("Start a new game? This one will be lost.")) return;
    game = null; save(); show();
  });
  game = load();
  if (game && game.v !== 1) game = null;
  if (game && game.result && game.result.pending) game.result = null;
  show();
}

init();
