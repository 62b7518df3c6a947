// The table: a whole game on the game API, you in seat 0 and the computer in the
// others (POST /v1/games/suggest).  The page holds the state the service answered and
// sends it back with each action; in a sealed game (a service with a secret) each seat
// acts and looks with its own seat token.  Only the legal actions the service lists can
// be clicked; anything refused anyway is shown with the service's explanation.
import { post, say } from "./api.js";
import { cardEl, backEl, kindWords, el } from "./cards.js";
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

const t = {
  answer: null, // the last answer, as seat 0 sees it
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
  let answer = await post("/v1/games/advance", asSeat(seat, { state: t.answer.state, action }));
  const events = answer.events;
  if (sealed() && seat !== ME) {
    answer = await post("/v1/games/view", { state: answer.state, seat_token: t.tokens[ME] });
  }
  t.answer = answer;
  logEvents(events, seat);
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
  if (t.busy) return;
  t.busy = true;
  render();
  try {
    for (;;) {
      const a = t.answer;
      if (a.phase === "over") break;
      const bots = a.to_act.filter((s) => s !== ME);
      if (!bots.length) break;
      if (DELAY) await sleep(DELAY);
      const seat = bots[0];
      const action = await botAction(seat);
      if (!action) throw new Error(`no action for ${name(seat)}`);
      await act(seat, action);
    }
  } catch (err) {
    say($("error"), err.message);
  } finally {
    t.busy = false;
    render();
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

async function start(ev) {
  ev.preventDefault();
  t.players = Number($("players").value);
  t.level = $("level").value;
  const seed = $("seed").value.trim();
  // skunk: the result says what the board's skunk lines mean (a skunk, a double skunk)
  t.options = { players: t.players, skunk: true, ...(seed ? { deck: "seeded", seed } : {}) };
  t.record = []; t.selected.clear(); t.over = false; t.tokens = null; t.show = null;
  t.chance = new Chance(0); // seat 0 is side 0 in every game
  $("show").hidden = true;
  $("chance").hidden = true;
  resetReview();
  say($("error"), "");
  $("events").replaceChildren();
  try {
    const answer = await post("/v1/games", { options: t.options });
    t.tokens = answer.seat_tokens;
    t.answer = sealed() ? await post("/v1/games/view", { state: answer.state, seat_token: t.tokens[ME] }) : answer;
    t.firstDealer = answer.view.first_dealer;
    $("game").hidden = false;
    $("setup").hidden = true;
    const target = answer.view.options.target || 121;
    // On a phone the board is a low strip kept in view above the hand and the log (app.css)
    t.board = new Board($("board"), t.players === 4 ? 2 : t.players, target, skunkMarks(target),
      { strip: window.matchMedia(PHONE).matches });
    logEvents(answer.events, null);
    say($("notice"), sealed() ? "Sealed game: every seat acts with its own seat token." : "", "info");
    render();
    runBots();
  } catch (err) {
    say($("error"), err.message);
  }
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
    const body = await post("/v1/hands/score", { cards: e.cards, starter, crib: e.what === "crib" });
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
  hand.replaceChildren(...v.hands[ME].map((c) => {
    if (!c) return backEl();
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
  }));
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
    if (x.type === "deal") buttons.push(el("button", { type: "button", class: "primary", text: "Deal", onclick: () => send(x) }));
    if (x.type === "cut") buttons.push(el("button", { type: "button", class: "primary", text: "Cut for the starter", onclick: () => send(x) }));
    if (x.type === "go") buttons.push(el("button", { type: "button", class: "primary", text: "Go", onclick: () => send(x) }));
    if (x.type === "count") buttons.push(el("button", { type: "button", class: "primary", text: `Count your ${x.what}`, onclick: () => send(x) }));
  }
  if (!buttons.length && a.phase !== "over") buttons.push(el("span", { text: plays.size ? "Play a card from your hand." : `Waiting for ${whose}\u2026` }));
  $("actions").replaceChildren(...buttons);
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
  $("again").addEventListener("click", () => { $("setup").hidden = false; $("game").hidden = true; t.answer = null; resetReview(); });
  if (params.get("seed")) $("seed").value = params.get("seed");
  if (params.get("players")) $("players").value = params.get("players");
  if (params.get("level")) $("level").value = params.get("level");
  // For tests and the curious: the state as the service last answered it, and a way to
  // send any action (the UI itself offers only legal ones).
  window.cribbageTable = { get answer() { return t.answer; }, get tokens() { return t.tokens; }, send };
}

init();
