// The table: a whole game on the game API, you in seat 0 and the computer in the
// others (POST /v1/games/suggest).  The page holds the state the service answered and
// sends it back with each action; in a sealed game (a service with a secret) each seat
// acts and looks with its own seat token.  Only the legal actions the service lists can
// be clicked; anything refused anyway is shown with the service's explanation.
// The game is kept in the browser (localStorage) after every answer, so a reload goes on
// with it: the state (and in a sealed game the seat tokens), the options and the log.
// "Hint" asks the same bot (POST /v1/games/suggest) what your seat would do, as your seat.
import { post, say } from "./api.js";
import { cardEl, backEl, cardName, kindWords, el } from "./cards.js";
import { Board, skunkMarks } from "./board.js";
import { comboTable } from "./show.js";
import { Chance, percent } from "./chance.js";
import { drawReview } from "./review.js";

const $ = (id) => document.getElementById(id);
const ME = 0;
const params = new URLSearchParams(location.search);
const DELAY = params.has("delay") ? Number(params.get("delay")) : 450;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const PHONE = "(max-width: 760px)"; // as app.css's table layout

const STORE = "cribbage-table";
const STORE_FORMAT = 1; // of what the page keeps; a kept game of another format is not read

const t = {
  answer: null, // the last answer, as seat 0 sees it
  gen: 0, // the game's number in this page: an answer to an older game's request is dropped
  log: [], // every answer's events, [actor, events], to draw the log again after a reload
  scored: {}, // the service's breakdowns of the counts (POST /v1/hands/score), by cards
  hint: null, // {seq, action, text}: the bot's suggestion for your seat at that seq
  tokens: null, // sealed: one seat token per seat
  players: 2, level: "strong", options: null, busy: false, suggest: true,
  selected: new Set(), record: [], board: null, firstDealer: null, over: false,
  show: null, // this deal's show: {deal, starter, counts: [{seat, what, cards, pegged, body}]}
  chance: null, // your side's chance of winning, deal by deal (the service's figures)
};

const sealed = () => t.tokens !== null;
function name(seat) {
  if (seat === ME) return "You";
  return t.players === 2 ? "Computer" : `Bot ${seat}`;
}
/** "Your hand", "Computer's crib", "Bot 1's hand". */
function whose(seat, what) {
  return `${seat === ME ? "Your" : `${name(seat)}'s`} ${what}`;
}
function sideName(side) {
  if (t.players !== 4) return name(side);
  return side === 0 ? "You & Bot 2" : "Bot 1 & Bot 3";
}
const verb = (seat, you, other) => `${name(seat)} ${seat === ME ? you : other}`;

// -- talking to the service --------------------------------------------------------

function asSeat(seat, body) {
  if (sealed()) return { ...body, seat_token: t.tokens[seat] };
  return { ...body, view: ME };
}

async function act(seat, action) {
  const gen = t.gen;
  let answer = await post("/v1/games/advance", asSeat(seat, { state: t.answer.state, action }));
  const events = answer.events;
  if (sealed() && seat !== ME) {
    answer = await post("/v1/games/view", { state: answer.state, seat_token: t.tokens[ME] });
  }
  if (gen !== t.gen) return; // a new game was started meanwhile
  t.answer = answer;
  t.log.push([seat, events]);
  logEvents(events, seat);
  save();
  render();
}

async function botAction(seat) {
  if (t.suggest) {
    try {
      const body = { state: t.answer.state, seat, level: t.level };
      if (sealed()) body.seat_token = t.tokens[seat];
      return (await post("/v1/games/suggest", body)).action;
    } catch (err) {
      if (!err.missing) throw err;
      t.suggest = false;
      say($("notice"), "The computer opponent needs POST /v1/games/suggest, which this service does not offer yet: "
        + "the bots play the first legal action the service lists.", "info");
    }
  }
  let legal = t.answer.legal_actions;
  if (sealed()) legal = (await post("/v1/games/view", { state: t.answer.state, seat_token: t.tokens[seat] })).legal_actions;
  return legal.find((a) => a.seat === seat);
}

/** Let the bots act while it is their turn (and not yours). */
async function runBots() {
  if (t.busy || !t.answer) return;
  const gen = t.gen;
  t.busy = true;
  render();
  try {
    for (;;) {
      if (gen !== t.gen) return;
      const a = t.answer;
      if (a.phase === "over") break;
      const bots = a.to_act.filter((s) => s !== ME);
      if (!bots.length) break;
      if (DELAY) await sleep(DELAY);
      if (gen !== t.gen) return;
      const seat = bots[0];
      const action = await botAction(seat);
      if (!action) throw new Error(`no action for ${name(seat)}`);
      await act(seat, action);
    }
  } catch (err) {
    if (gen === t.gen) say($("error"), err.message);
  } finally {
    if (gen === t.gen) {
      t.busy = false;
      render();
    }
  }
}

/** Your move: any action object (the UI only offers legal ones). */
async function send(action) {
  if (t.busy) return;
  t.busy = true;
  say($("error"), "");
  render();
  try {
    await act(ME, action);
    t.selected.clear();
  } catch (err) {
    say($("error"), err.problem && err.problem.detail
      ? `The service refused that: ${err.problem.detail}${err.problem.rule ? ` (rule: ${err.problem.rule})` : ""}`
      : err.message);
  } finally {
    t.busy = false;
    render();
  }
  runBots();
}

/** The options of the new-game form, as the API's GameOptions names them. */
function formOptions() {
  const seed = $("seed").value.trim();
  return {
    players: Number($("players").value),
    target: Number($("target").value),
    muggins: $("muggins").checked,
    // skunk: the result says what the board's skunk lines mean (a skunk, a double skunk)
    skunk: $("skunk").checked,
    ...(seed ? { deck: "seeded", seed } : {}),
  };
}

/** The form shows a game's options (a kept game's, so "New game" starts from them). */
function fillForm(options, level) {
  $("players").value = String(options.players || 2);
  $("target").value = String(options.target || 121);
  $("muggins").checked = !!options.muggins;
  $("skunk").checked = !!options.skunk;
  $("seed").value = options.seed || "";
  if (level) $("level").value = level;
}

/** A fresh table: nothing of the last game is shown. */
function clearTable() {
  t.gen += 1;
  t.busy = false;
  t.answer = null; t.tokens = null; t.show = null; t.hint = null;
  t.record = []; t.log = []; t.scored = {}; t.selected.clear(); t.over = false;
  t.chance = new Chance(0); // seat 0 is side 0 in every game
  $("show").hidden = true;
  $("chance").hidden = true;
  resetReview();
  say($("error"), "");
  say($("notice"), "", "info");
  $("events").replaceChildren();
}

/** Why the service refused the new game's options, in words: a seed's reason says what
 *  a seed must be; anything else is the service's own explanation. */
function optionsRefused(err) {
  const errors = err.problem && Array.isArray(err.problem.errors) ? err.problem.errors : [];
  const seed = errors.find((e) => e.field === "/options/seed");
  if (seed) {
    const secret = /32|secret/.test(seed.reason || "");
    return secret
      ? "This seed cannot be used here: on this service a game is sealed (the seed is a secret, "
        + "since whoever knows it knows every card), so a seed needs at least 32 characters. "
        + "Choose a longer one, or leave it empty for a shuffled deck."
      : `This seed cannot be used: ${seed.reason}. Choose another, or leave it empty for a shuffled deck.`;
  }
  const option = errors.find((e) => e.field && e.field.startsWith("/options/"));
  if (option) return `The service does not take that option (${option.field.slice(9)}: ${option.reason}).`;
  return err.message;
}

async function start(ev) {
  ev.preventDefault();
  clearTable();
  const gen = t.gen;
  t.players = Number($("players").value);
  t.level = $("level").value;
  t.options = formOptions();
  try {
    const answer = await post("/v1/games", { options: t.options });
    if (gen !== t.gen) return;
    t.tokens = answer.seat_tokens;
    t.answer = sealed() ? await post("/v1/games/view", { state: answer.state, seat_token: t.tokens[ME] }) : answer;
    t.firstDealer = answer.view.first_dealer;
    t.log.push([null, answer.events]);
    showGame();
    save();
    render();
    runBots();
  } catch (err) {
    say($("error"), err.status === 422 ? optionsRefused(err) : err.message);
    $("seed").focus();
  }
}

/** The table for the game in ``t``: the board, the log drawn from the events kept. */
function showGame() {
  $("game").hidden = false;
  $("setup").hidden = true;
  const target = t.options.target || 121;
  // On a phone the board is a low strip kept in view above the hand and the log (app.css)
  t.board = new Board($("board"), t.players === 4 ? 2 : t.players, target, t.options.skunk ? skunkMarks(target) : {},
    { strip: window.matchMedia(PHONE).matches });
  $("game-options").textContent = optionWords(t.options);
  $("game-options").dataset.target = String(target);
  $("events").replaceChildren();
  t.record = []; t.show = null; t.starter = null;
  for (const [actor, events] of t.log) logEvents(events, actor);
  // a sealed game says so in the options line, not in a banner above the table
  say($("notice"), "", "info");
}

function optionWords(o) {
  return [`Game to ${o.target || 121}`, o.muggins ? "muggins" : "no muggins", o.skunk ? "skunks count" : "no skunks",
    `${t.level} opponent`, o.seed ? `seed \u201c${o.seed}\u201d` : "shuffled deck",
    ...(sealed() ? ["sealed: each seat acts with its own seat token"] : [])].join(" \u00b7 ");
}

// -- keeping the game over a reload -------------------------------------------------

function save() {
  if (!t.answer) return;
  const kept = {
    format: STORE_FORMAT, answer: t.answer, tokens: t.tokens, players: t.players, level: t.level,
    options: t.options, firstDealer: t.firstDealer, log: t.log, scored: t.scored,
    chance: t.chance ? t.chance.points : [],
  };
  try {
    localStorage.setItem(STORE, JSON.stringify(kept));
  } catch {
    // storage full or refused (a private window): the game goes on, only a reload loses it
  }
}

function forget() {
  try { localStorage.removeItem(STORE); } catch { /* nothing kept */ }
}

function kept() {
  let raw = null;
  try { raw = localStorage.getItem(STORE); } catch { return null; }
  if (!raw) return null;
  try {
    const k = JSON.parse(raw);
    if (k && k.format === STORE_FORMAT && k.answer && k.answer.state && k.options && Array.isArray(k.log)) return k;
  } catch { /* not JSON: forgotten below */ }
  forget();
  return undefined; // something was kept, but not a game this page reads
}

/** The kept game, if any: its state is sent to the service (which verifies every state
 *  it is given) for your seat's view; one it refuses (a 4xx, say a state of an older or
 *  newer release) is forgotten, and the page offers a new game and says why. */
async function restore() {
  const k = kept();
  if (k === undefined) {
    say($("notice"), "The game kept in this browser could not be read; start a new one.", "info");
    return;
  }
  if (!k) return;
  fillForm(k.options, k.level);
  const gen = t.gen;
  say($("notice"), "Restoring your game\u2026", "info");
  let answer;
  try {
    const body = k.tokens ? { state: k.answer.state, seat_token: k.tokens[ME] } : { state: k.answer.state, seat: ME };
    answer = await post("/v1/games/view", body);
  } catch (err) {
    if (gen !== t.gen) return;
    if (err.status >= 400 && err.status < 500) {
      forget();
      say($("notice"), "Your saved game could not be restored: the service no longer accepts it "
        + `(${err.problem && err.problem.detail ? err.problem.detail : `it answered ${err.status}`}). `
        + "Start a new game: the options are as they were.", "info");
      $("notice").dataset.restore = "refused";
    } else {
      say($("notice"), `Your saved game is kept, but the service cannot be reached now (${err.message}): reload to try again.`, "info");
    }
    return;
  }
  if (gen !== t.gen) return; // a new game was started meanwhile
  Object.assign(t, {
    answer, tokens: k.tokens || null, players: k.players, level: k.level, options: k.options,
    firstDealer: k.firstDealer, log: k.log, scored: k.scored || {},
  });
  t.chance = new Chance(0);
  if (Array.isArray(k.chance)) t.chance.points = k.chance;
  showGame();
  $("game").dataset.restored = "true";
  render();
  runBots();
}

/** "New game" (and "Another game"): forget the kept game and show the options. */
function newGame() {
  clearTable();
  forget();
  $("setup").hidden = false;
  $("game").hidden = true;
  delete $("game").dataset.restored;
  $("setup-form").querySelector("button[type=submit]").focus();
}

// -- what happened -----------------------------------------------------------------

function scoreText(s, actor) {
  const who = s.seat !== actor ? ` to ${s.seat === ME ? "you" : name(s.seat)}` : "";
  return `${kindWords(s.kind)} ${s.points}${who}`;
}

function cardsInline(cards) {
  return el("span", { class: "cards inline" }, ...cards.map((c) => { const m = c ? cardEl(c) : backEl(); m.classList.add("mini"); return m; }));
}

/** A count joins the show (laid out below the play); the service's breakdown of it,
 *  from POST /v1/hands/score, arrives later (in any order: each count has its place). */
function showCount(e) {
  if (!t.show || t.show.deal !== e.deal) t.show = { deal: e.deal, starter: t.starter, counts: [] };
  const entry = { seat: e.seat, what: e.what, cards: e.cards, pegged: e.points || 0, body: null };
  t.show.counts.push(entry);
  renderShow();
  return entry;
}

/** The count as a player says it, from POST /v1/hands/score (the starter is the view's),
 *  and its combinations in the show.  The event lists what was pegged: when the game
 *  ended during this count (the pegs stop at the game hole) that is less than the hand
 *  holds, and the whole hand's call would say points that were never pegged; the line
 *  says where the count stopped instead. */
async function sayCount(line, e) {
  const starter = t.starter; // this deal's: the answer to the crib's count is the next deal's
  const target = t.board.target;
  if (!starter || !e.cards || e.cards.length !== 4 || e.cards.some((c) => !c)) return;
  const entry = showCount(e);
  try {
    const key = `${e.cards.join("")}${starter}${e.what === "crib" ? "c" : "h"}`;
    const body = t.scored[key] || await post("/v1/hands/score", { cards: e.cards, starter, crib: e.what === "crib" });
    if (!t.scored[key]) {
      t.scored[key] = body;
      save();
    }
    entry.body = body;
    renderShow();
    const pegged = e.points || 0;
    if (pegged < body.total) {
      line.dataset.stopped = String(body.total);
      line.append(" ", el("span", {
        class: "stopped",
        text: `The game ended at ${target} during this count: ${pegged} of the ${e.what}'s ${body.total} points pegged.`,
      }));
    } else {
      line.append(" ", el("q", { class: "call", text: body.call || "nineteen" }));
    }
    scrollLog();
  } catch {
    // the count itself is shown already; the spoken form and the combinations are a nicety
  }
}

/** The show of the deal counted last: each hand and the crib, in the order counted,
 *  with every combination the service found in it. */
function renderShow() {
  const s = t.show;
  if (!s) return;
  $("show").hidden = false;
  $("show").dataset.deal = String(s.deal);
  $("show-h").textContent = `The show, deal ${s.deal}`;
  $("show-counts").replaceChildren(...s.counts.map((c, i) => {
    const title = whose(c.seat, c.what);
    const b = c.body;
    const head = !b ? `${title}: counting\u2026`
      : c.pegged < b.total ? `${title}: ${b.total} (${c.pegged} pegged: the game ended)`
        : `${title}: ${b.total} point${b.total === 1 ? "" : "s"}`;
    return el("section", { class: "count-box", "data-seat": c.seat, "data-what": c.what, "aria-labelledby": `show-${i}-h`,
      "data-total": b ? String(b.total) : null },
    el("h3", { id: `show-${i}-h`, text: head }),
    el("p", { class: "show-hand" }, cardsInline(c.cards), el("span", { class: "plus", text: " and the starter " }), cardsInline([s.starter])),
    b && b.call ? el("q", { class: "call", text: b.call }) : null,
    b ? comboTable(b, `${title}: every combination counted`) : null);
  }));
}

function scrollLog() {
  const list = $("events");
  list.scrollTop = list.scrollHeight;
}

function logEvents(events, actor) {
  const list = $("events");
  for (const e of events) {
    let line = null;
    const seat = e.seat;
    const scores = e.scores || [];
    switch (e.type) {
      case "cut_for_deal":
        line = el("li", {}, "Cut for the deal: ", cardsInline(e.cards), seat === undefined ? " a tie: cut again." : ` ${name(seat)} deal${seat === ME ? "" : "s"} first.`);
        break;
      case "deal":
        line = el("li", { text: `Deal ${e.deal}: ${verb(seat, "deal", "deals")}.` });
        break;
      case "discard":
        line = el("li", {}, `${verb(seat, "lay", "lays")} away `, seat === ME && e.cards && e.cards[0] ? cardsInline(e.cards) : `${e.cards ? e.cards.length : ""} card${e.cards && e.cards.length === 1 ? "" : "s"}`, ".");
        break;
      case "starter":
        t.starter = e.cards[0];
        line = el("li", {}, `${verb(seat, "cut", "cuts")}: the starter is `, cardsInline(e.cards), ".");
        break;
      case "play":
        line = el("li", {}, `${verb(seat, "play", "plays")} `, cardsInline([e.card]), `, count ${e.count}${e.reset ? " (the count starts again)" : ""}.`);
        break;
      case "go":
        line = el("li", { text: `${verb(seat, "say", "says")} go${e.reset ? " (the count starts again)" : ""}.` });
        break;
      case "count":
        line = el("li", {}, `${verb(seat, "count", "counts")} ${seat === ME ? "your" : "the"} ${e.what}: `, cardsInline(e.cards),
          ` \u2014 ${e.points || 0} point${e.points === 1 ? "" : "s"}.`);
        sayCount(line, e);
        break;
      case "game_over":
        line = el("li", { text: "Game over." });
        break;
      case "deal_record":
        t.record.push(...e.record);
        break;
      default:
        line = el("li", { text: e.type });
    }
    if (!line) continue;
    line.dataset.type = e.type;
    if (scores.length) {
      line.append(" ", el("span", { class: "pts", text: scores.map((s) => scoreText(s, seat)).join(", ") }));
      line.dataset.points = String(e.points);
    }
    list.append(line);
    scrollLog();
  }
  if (t.record.length && !sealed()) {
    $("record").textContent = JSON.stringify({ record: gameRecord() }, null, 1);
  }
  $("record-box").hidden = sealed();
}

// -- drawing the table ---------------------------------------------------------------

function mine() {
  return t.answer.legal_actions.filter((a) => a.seat === ME);
}

function render() {
  const a = t.answer;
  if (!a) return;
  const v = a.view;
  const sides = v.scores.map((s, i) => ({ ...s, name: sideName(i) }));
  t.board.set(sides);
  renderChance(a);
  const legal = t.busy ? [] : mine();
  const waiting = a.phase === "over" ? "over" : legal.length ? "you" : "bots";
  $("game").dataset.waiting = t.busy && a.phase !== "over" ? "busy" : waiting;
  const whose = a.to_act.map(name).join(", ");
  $("status").textContent = `Deal ${v.deal} \u00b7 ${verb(v.dealer, "deal", "deals")} \u00b7 `
    + (a.phase === "over" ? "game over" : legal.length ? "your move" : `waiting for ${whose}`)
    + ` \u00b7 ${sides.map((s) => `${s.name} ${s.front}`).join(", ")}`;
  // the other seats
  $("seats").replaceChildren(...v.hands.map((hand, seat) => [hand, seat]).filter(([, seat]) => seat !== ME).map(([hand, seat]) => {
    const played = new Set(v.play ? v.play.played : []);
    return el("div", { class: `panel seat${a.to_act.includes(seat) && a.phase !== "over" ? " to-act" : ""}`, "data-seat": seat },
      el("h3", { text: `${name(seat)}${seat === v.dealer ? " (dealer)" : ""} \u2014 ${sideName(t.players === 4 ? seat % 2 : seat) === name(seat) ? v.scores[seat].front : `team ${v.scores[seat % 2].front}`}` }),
      el("div", { class: "cards" }, ...hand.map((c) => {
        const m = c ? cardEl(c) : backEl();
        m.classList.add("mini");
        if (c && played.has(c) && a.phase === "play") {
          m.classList.add("off");
          m.setAttribute("aria-label", `${m.getAttribute("aria-label")}, played`);
        }
        return m;
      })),
      seat === v.dealer && v.crib.length ? el("div", {}, "Crib: ", cardsInline(v.crib)) : null);
  }));
  // the play
  const play = v.play;
  $("count").textContent = play ? String(play.count) : "\u2013";
  $("count-cards").replaceChildren(...(play ? play.count_cards : []).map((c) => cardEl(c)));
  $("starter").replaceChildren(v.starter ? cardEl(v.starter) : backEl());
  // your hand
  const played = new Set(play ? play.played : []);
  const discards = legal.filter((x) => x.type === "discard");
  const plays = new Map(legal.filter((x) => x.type === "play").map((x) => [x.card, x]));
  const hand = $("my-hand");
  // Keyboard users keep their place: focus moves to the next control the page offers.
  const keepFocus = hand.contains(document.activeElement) || $("actions").contains(document.activeElement);
  const focusedCard = keepFocus ? document.activeElement.dataset.card : null;
  hand.dataset.mode = discards.length ? "discard" : plays.size ? "play" : "";
  hand.dataset.discard = discards.length ? String(discards[0].cards.length) : "";
  $("you-h").textContent = `Your hand${ME === v.dealer ? " (you deal)" : ""}`;
  // Cards you can act on are buttons; the others are plain card faces at full contrast
  // (a card played this deal is marked, dashed; in the show your hand is whole again).
  const hint = t.hint && t.hint.seq === a.seq && !t.busy ? t.hint : null;
  const hinted = new Set(!hint ? [] : hint.action.type === "discard" ? hint.action.cards
    : hint.action.type === "play" ? [hint.action.card] : []);
  hand.replaceChildren(...v.hands[ME].map((c) => {
    if (!c) return backEl();
    const m = handCard(c);
    if (hinted.has(c)) {
      m.classList.add("hinted");
      m.dataset.hint = "true";
    }
    return m;
  }));
  function handCard(c) {
    const wasPlayed = played.has(c) && a.phase === "play";
    if (!discards.length && !plays.size || wasPlayed) {
      const face = cardEl(c);
      if (wasPlayed) {
        face.classList.add("off");
        face.setAttribute("aria-label", `${face.getAttribute("aria-label")}, played`);
      }
      return face;
    }
    const b = cardEl(c, "button");
    b.type = "button";
    if (discards.length) {
      b.setAttribute("aria-pressed", String(t.selected.has(c)));
      b.addEventListener("click", () => { t.selected.has(c) ? t.selected.delete(c) : t.selected.add(c); render(); });
    } else if (plays.has(c)) {
      b.addEventListener("click", () => send(plays.get(c)));
      b.setAttribute("aria-label", `Play the ${b.getAttribute("aria-label")}`);
    } else {
      b.disabled = true;
      b.title = "not a legal play now";
    }
    return b;
  }
  if (ME === v.dealer && v.crib.some(Boolean)) hand.append(el("span", { text: " crib: " }), cardsInline(v.crib));
  // your moves
  const buttons = [];
  if (discards.length) {
    const n = discards[0].cards.length;
    const pick = [...t.selected].sort().join(",");
    const match = discards.find((d) => [...d.cards].sort().join(",") === pick);
    buttons.push(el("button", {
      type: "button", id: "lay-away", class: "primary", disabled: !match,
      text: `Lay away ${n === 1 ? "this card" : "these two"} (${t.selected.size}/${n} chosen)`,
      onclick: () => match && send(match),
    }));
  }
  for (const x of legal) {
    if (x.type === "deal") buttons.push(el("button", { type: "button", class: "primary", text: "Deal", "data-action": "deal", onclick: () => send(x) }));
    if (x.type === "cut") buttons.push(el("button", { type: "button", class: "primary", text: "Cut for the starter", "data-action": "cut", onclick: () => send(x) }));
    if (x.type === "go") buttons.push(el("button", { type: "button", class: "primary", text: "Go", "data-action": "go", onclick: () => send(x) }));
    if (x.type === "count" && t.options && t.options.muggins) buttons.push(...claimControls(x));
    else if (x.type === "count") buttons.push(el("button", { type: "button", class: "primary", text: `Count your ${x.what}`, "data-action": "count", onclick: () => send(x) }));
  }
  if (hint && !hinted.size) {
    // an action without a card (go, the count, a deal, the cut): its button is marked
    const b = buttons.find((x) => x.dataset && x.dataset.action === hint.action.type);
    if (b) {
      b.classList.add("hinted");
      b.dataset.hint = "true";
    }
  }
  if (!buttons.length && a.phase !== "over") buttons.push(el("span", { text: plays.size ? "Play a card from your hand." : `Waiting for ${whose}\u2026` }));
  $("actions").replaceChildren(...buttons);
  $("hint").hidden = !legal.length || a.phase === "over";
  $("hint").disabled = t.hinting;
  $("hint-text").hidden = !hint;
  $("hint-text").textContent = hint ? hint.text : "";
  if (keepFocus) {
    const same = focusedCard && hand.querySelector(`button[data-card="${focusedCard}"]:not(:disabled)`);
    const next = same || $("actions").querySelector("button:not(:disabled)") || hand.querySelector("button:not(:disabled)");
    if (next) next.focus();
    else $("status").setAttribute("tabindex", "-1"), $("status").focus();
  }
  // the end
  $("result").hidden = a.phase !== "over";
  if (a.phase === "over" && v.result) {
    const r = v.result;
    const losers = r.losers.map((l) => `${sideName(l.side)} ${l.score}${l.result ? ` (${l.result.replace("_", " ")}, ${l.games} games)` : ""}`);
    $("result-text").textContent = `${r.winner === 0 ? (t.players === 4 ? "You and Bot 2 win" : "You win") : `${sideName(r.winner)} win${t.players === 4 ? "" : "s"}`} `
      + `with ${v.scores[r.winner].front}; ${losers.join(", ")}.`;
    $("result").dataset.winner = String(r.winner);
  }
}

/** Muggins: you count your own hand (or crib) and claim its points; what you miss goes
 *  to the other side.  The claim is a number from 0 to 29, sent as the count's ``claim``. */
function claimControls(x) {
  const input = el("input", { type: "number", id: "claim", min: "0", max: "29", step: "1", inputmode: "numeric",
    class: "claim", value: t.claim === undefined ? "" : t.claim });
  const label = el("label", { for: "claim", text: `Your ${x.what}: you claim` });
  const valid = () => /^\d{1,2}$/.test(input.value) && Number(input.value) <= 29;
  const button = el("button", {
    type: "button", class: "primary", id: "claim-count", "data-action": "count", disabled: !valid(),
    text: `Count your ${x.what}`,
    onclick: () => valid() && (t.claim = undefined, send({ ...x, claim: Number(input.value) })),
  });
  input.addEventListener("input", () => { t.claim = input.value; button.disabled = !valid(); });
  input.addEventListener("keydown", (ev) => { if (ev.key === "Enter" && valid()) button.click(); });
  return [el("span", { class: "claim-box" }, label, input, el("span", { text: " points" })), button];
}

/** What the bot's reason says, in words (its numbers as the service gives them). */
function reasonWords(action, reason) {
  const r = reason || {};
  const n = (x) => (typeof x === "number" ? x.toFixed(1) : null);
  if (action.type === "discard") {
    const parts = [];
    if (n(r.hand_mean)) parts.push(`the four you keep score ${n(r.hand_mean)} on average`);
    if (n(r.crib_mean)) parts.push(`the crib ${n(r.crib_mean)} (${r.own_crib ? "yours" : "theirs"})`);
    if (n(r.net)) parts.push(`${n(r.net)} net`);
    return parts.join(", ");
  }
  if (action.type === "play" || action.type === "go") {
    const best = Array.isArray(r.choices) && r.choices[0];
    if (best && n(best.own) && n(best.others)) {
      return `from here you peg ${n(best.own)} on average and the others ${n(best.others)}`
        + (r.choices.length > 1 ? ` (${r.choices.length} choices weighed)` : "");
    }
    return "";
  }
  if (action.type === "count" && typeof r.points === "number") return `it holds ${r.points} point${r.points === 1 ? "" : "s"}`;
  return "";
}

function actionWords(action) {
  switch (action.type) {
    case "discard": return `lay away the ${action.cards.map(cardName).join(" and the ")}`;
    case "play": return `play the ${cardName(action.card)}`;
    case "go": return "say go";
    case "count": return `count your ${action.what || "hand"}${typeof action.claim === "number" ? ` and claim ${action.claim}` : ""}`;
    case "cut": return "cut for the starter";
    case "deal": return "deal";
    default: return action.type;
  }
}

/** Hint: the strong bot's choice for your seat, asked as your seat only (your seat number
 *  in plain mode, your own seat token in a sealed game: never another seat's). */
async function hint() {
  if (t.busy || t.hinting || !t.answer) return;
  const gen = t.gen;
  const seq = t.answer.seq;
  t.hinting = true;
  render();
  try {
    const body = { state: t.answer.state, seat: ME, level: "strong" };
    if (sealed()) body.seat_token = t.tokens[ME];
    const answer = await post("/v1/games/suggest", body);
    if (gen !== t.gen || !t.answer || t.answer.seq !== seq) return;
    const why = reasonWords(answer.action, answer.reason);
    t.hint = { seq, action: answer.action, text: `Hint: ${actionWords(answer.action)}${why ? ` \u2014 ${why}` : ""}.` };
    if (answer.action.type === "discard") t.selected = new Set(answer.action.cards);
    if (answer.action.type === "count" && typeof answer.action.claim === "number") t.claim = String(answer.action.claim);
  } catch (err) {
    if (gen === t.gen) {
      t.hint = { seq, action: { type: "none" }, text: err.missing
        ? "Hints need POST /v1/games/suggest, which this service does not offer yet."
        : `No hint: ${err.message}` };
    }
  } finally {
    t.hinting = false;
    if (gen === t.gen) render();
  }
}

/** Your side's chance of winning, when the service's views carry it. */
function renderChance(a) {
  if (!t.chance || !t.chance.note(a)) return;
  const now = t.chance.now;
  $("chance").hidden = false;
  $("chance-now").textContent = percent(now.p);
  $("chance-now").dataset.p = String(now.p);
  $("chance-when").textContent = now.over ? "at the end of the game"
    : `at the start of deal ${now.deal} (the service's odds for the score then and who deals)`;
  const who = t.players === 4 ? "You and Bot 2: your chance of winning" : "Your chance of winning";
  $("chance-chart").replaceChildren(t.chance.draw(who));
}

// -- the review ---------------------------------------------------------------------

function resetReview() {
  $("review").hidden = true;
  $("review-body").replaceChildren();
  delete $("review").dataset.ready;
  $("review-game").disabled = false;
}

/** The finished game's record, as the page kept it from the deal records (plain mode). */
function gameRecord() {
  return { game_id: t.answer ? t.answer.game_id : "", options: t.options, first_dealer: t.firstDealer, actions: t.record };
}

async function review() {
  $("review-game").disabled = true;
  $("review").hidden = false;
  $("review-status").textContent = "The service is reviewing every decision of the game\u2026";
  try {
    // a sealed game is reviewed from its final state (its record never reached the page)
    const body = sealed() ? { state: t.answer.state } : { record: gameRecord() };
    const answer = await post("/v1/games/review", body);
    $("review-status").textContent = "";
    $("review-body").replaceChildren(...drawReview(answer, name, ME));
    $("review").dataset.ready = "true";
    $("review-h").setAttribute("tabindex", "-1");
    $("review-h").focus(); // the review is below the table: a keyboard or screen reader user is taken there
  } catch (err) {
    $("review-status").textContent = err.missing
      ? "The review needs POST /v1/games/review, which this service does not offer yet."
      : err.message;
    $("review-game").disabled = false;
  }
}

function init() {
  $("setup-form").addEventListener("submit", start);
  $("review-game").addEventListener("click", review);
  $("again").addEventListener("click", newGame);
  $("new-game").addEventListener("click", newGame);
  $("hint").addEventListener("click", hint);
  if (params.get("seed")) $("seed").value = params.get("seed");
  if (params.get("players")) $("players").value = params.get("players");
  if (params.get("level")) $("level").value = params.get("level");
  // For tests and the curious: the state as the service last answered it, and a way to
  // send any action (the UI itself offers only legal ones).
  window.cribbageTable = { get answer() { return t.answer; }, get tokens() { return t.tokens; }, send };
  restore();
}

init();
