// @ts-check
/**
 * A program on the cribbage service's TypeScript client, as a web or mobile
 * developer would write one: `make clients` (tools/clients.py) generates the
 * types from openapi.yaml (schema.d.ts, imported as ./schema.js, which
 * TypeScript resolves to schema.d.ts) beside client.mjs (openapi-fetch typed
 * by them); this file runs in that folder.  Plain JavaScript so that node 20
 * runs it as is; `tsc --checkJs` checks it against the generated types (the
 * JSDoc annotations below), so a contract change that breaks this client
 * fails the type check.
 *
 *   node play.mjs http://127.0.0.1:8000
 *
 * Scores a hand, then plays one whole hand of a 2-player game (deal, discard,
 * cut, play, show) taking the first legal action each time, looks at the
 * table as seat 1 once, and prints one JSON object for
 * tests/system/test_generated_clients.py.  Exits 1 (printing the problem) on any
 * answer that is not a 2xx.
 */
import { cribbageClient } from "./client.mjs";

/** @typedef {import("./schema.js").paths} paths */
/** @typedef {import("./schema.js").components["schemas"]} schemas */

const baseUrl = process.argv[2];
if (!baseUrl) {
  console.error("usage: node play.mjs <base URL>");
  process.exit(2);
}

/** @type {import("openapi-fetch").Client<paths>} */
const client = cribbageClient(baseUrl);

/**
 * The answer's data, or exit 1 with the problem.
 * @template T
 * @param {string} what
 * @param {{data?: T, error?: unknown, response: Response}} answer
 * @returns {T}
 */
function ok(what, answer) {
  if (answer.data === undefined) {
    console.log(JSON.stringify({ failed: what, status: answer.response.status, problem: answer.error }));
    process.exit(1);
  }
  return /** @type {T} */ (answer.data);
}

/** @type {schemas["HandScoreRequest"]} */
const hand = { cards: ["5H", "5C", "5S", "JD"], starter: "5D", crib: false };
/** @type {schemas["HandScore"]} */
const score = ok("scoreHand", await client.POST("/v1/hands/score", { body: hand }));

/** @type {schemas["GameResponse"]} */
let game = ok("startGame", await client.POST("/v1/games", {
  body: { options: { players: 2, deck: "seeded", seed: "ts-client" }, dealer: 0 },
}));
const started = { game_id: game.game_id, phase: game.phase, to_act: game.to_act };

/** @type {string[]} */
const phases = [game.phase];
/** @type {{type: string, scores: {side: number, points: number}[]}[]} */
const events = [];
/** @type {schemas["GameAction"][]} */
const actions = [];
/** @type {schemas["GameView"] | null} */
let seatView = null;

// One hand: from the first deal until the next deal is due (or the game is over).
for (let step = 0; step < 200; step++) {
  const action = game.legal_actions[0];
  actions.push(action);
  game = ok(`advanceGame ${JSON.stringify(action)}`, await client.POST("/v1/games/advance", {
    body: { state: game.state, action },
  }));
  for (const e of game.events) {
    events.push({ type: e.type, scores: (e.scores ?? []).map((s) => ({ side: s.side, points: s.points })) });
  }
  if (phases[phases.length - 1] !== game.phase) phases.push(game.phase);
  if (game.phase === "play" && seatView === null) {
    // What seat 1 sees of the table in the play: its own hand, not seat 0's.
    const view = ok("viewGame", await client.POST("/v1/games/view", { body: { state: game.state, seat: 1 } }));
    seatView = view.view;
  }
  if (game.phase === "over" || (game.phase === "deal" && game.deal === 2)) break;
}

console.log(JSON.stringify({
  score: { total: score.total, call: score.call, kinds: score.breakdown.map((item) => item.kind) },
  game: {
    started,
    game_id: game.game_id,
    deal: game.deal,
    seq: game.seq,
    phase: game.phase,
    phases,
    actions: actions.map((a) => a.type),
    events,
    scores: game.view.scores.map((s) => s.front),
    seat_view: seatView && { seat: seatView.seat, hands: seatView.hands },
  },
}));
