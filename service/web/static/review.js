// The review of a finished game (POST /v1/games/review), drawn: per seat a summary
// (decisions, error rate, how many of each category, what the errors cost, the luck
// of the cards), then every decision with the better choice and what the one taken
// cost, in points and in the chance of winning.  The page grades nothing itself: the
// service's categories and figures are shown as they come.
import { cardEl, el } from "./cards.js";

const CATEGORY = { ok: "fine", doubtful: "doubtful", bad: "bad", very_bad: "very bad" };
const MARK = { ok: "", doubtful: "?!", bad: "?", very_bad: "??" }; // as annotated in chess and backgammon

const signed = (x, digits = 1) => `${x > 0 ? "+" : x < 0 ? "\u2212" : ""}${Math.abs(x).toFixed(digits)}`;
const pct = (x) => `${(x * 100).toFixed(1)}%`;
const points = (x) => `${x.toFixed(2)} pt`;

function mini(codes) {
  return el("span", { class: "cards inline" }, ...codes.map((c) => { const m = cardEl(c); m.classList.add("mini"); return m; }));
}

/** An action of the record's notation ("discard 0 5H6C", "play 1 TD", "go 0",
 *  "count 1 =12") in words, its cards drawn. */
export function actionEl(text) {
  const [type, , ...rest] = text.split(" ");
  const claim = rest.length && rest[rest.length - 1].startsWith("=") ? rest.pop().slice(1) : null;
  const cards = (rest.join("").match(/../g) || []);
  const verb = { discard: "lay away", play: "play", go: "go", count: "count", cut: "cut" }[type] || type;
  return el("span", { class: "action", "data-action": text }, `${verb}${cards.length ? " " : ""}`,
    cards.length ? mini(cards) : null, claim !== null ? ` claiming ${claim}` : null);
}

function summary(answer, who) {
  const cats = Object.keys(CATEGORY).filter((c) => c !== "ok");
  return el("table", { id: "review-seats", class: "review-seats" },
    el("caption", { text: "Each seat: its decisions (forced ones apart), the errors by category, what they cost, and the luck of its cards" }),
    el("thead", {}, el("tr", {},
      el("th", { scope: "col", text: "Seat" }),
      el("th", { scope: "col", class: "num", text: "Decisions" }),
      el("th", { scope: "col", class: "num", text: "Error rate" }),
      ...cats.map((c) => el("th", { scope: "col", class: "num", text: CATEGORY[c] })),
      el("th", { scope: "col", class: "num", text: "Cost (points)" }),
      el("th", { scope: "col", class: "num", text: "Cost (chance)" }),
      el("th", { scope: "col", class: "num", text: "Luck (points)" }))),
    el("tbody", {}, ...answer.seats.map((s) => el("tr", { "data-seat": s.seat },
      el("th", { scope: "row", text: who(s.seat) }),
      el("td", { class: "num", "data-label": "Decisions", text: String(s.decisions) }),
      el("td", { class: "num", "data-label": "Error rate", text: pct(s.error_rate) }),
      ...cats.map((c) => el("td", { class: "num", "data-category": c, "data-label": CATEGORY[c], text: String(s.categories[c]) })),
      el("td", { class: "num", "data-label": "Cost (points)", text: s.loss.points.toFixed(1) }),
      el("td", { class: "num", "data-label": "Cost (chance)", text: pct(s.loss.win) }),
      el("td", { class: "num luck", "data-label": "Luck", title: `dealt ${signed(s.luck.dealt)}, cut ${signed(s.luck.cut)}`,
        text: `${signed(s.luck.total)} (dealt ${signed(s.luck.dealt)}, cut ${signed(s.luck.cut)})` })))));
}

function decisionRow(d, who) {
  const flagged = d.category !== "ok";
  return el("tr", { class: `decision ${d.category}`, "data-category": d.category, "data-seat": d.seat, "data-index": d.index },
    el("td", { class: "num deal", "data-label": "Deal", text: String(d.deal) }),
    el("td", { class: "seat", text: who(d.seat) }),
    el("td", { class: "taken", "data-label": "Taken" }, actionEl(d.taken)),
    el("td", { class: "better", "data-label": "Better" }, flagged ? actionEl(d.best) : "\u2013"),
    el("td", { class: "num cost", "data-label": "Cost", text: flagged ? points(d.points.loss) : "\u2013" }),
    el("td", { class: "num cost", "data-label": "Chance lost", text: flagged ? pct(d.win.loss) : "\u2013" }),
    el("td", { class: "category" }, el("span", { class: `badge ${d.category}`, text: `${CATEGORY[d.category]}${MARK[d.category] ? ` ${MARK[d.category]}` : ""}` })));
}

/**
 * The review as page elements.
 * @param {object} answer POST /v1/games/review's answer
 * @param {(seat: number) => string} who a seat's name on this page
 * @param {number} me the seat whose decisions are shown first
 */
export function drawReview(answer, who, me) {
  const decisions = answer.decisions.filter((d) => !d.forced);
  const rows = new Map([["mine", decisions.filter((d) => d.seat === me)], ["all", decisions],
    ["flagged", decisions.filter((d) => d.category !== "ok")]]);
  const body = el("tbody");
  const count = el("p", { class: "lead", id: "review-count" });
  const show = (which) => {
    const list = rows.get(which);
    body.replaceChildren(...list.map((d) => decisionRow(d, who)));
    const flagged = list.filter((d) => d.category !== "ok").length;
    count.textContent = `${list.length} decision${list.length === 1 ? "" : "s"}, ${flagged} flagged`
      + ` (the thresholds on the chance of winning lost: doubtful from ${pct(answer.thresholds.doubtful)},`
      + ` bad from ${pct(answer.thresholds.bad)}, very bad from ${pct(answer.thresholds.very_bad)}).`;
  };
  const filter = el("select", { id: "review-filter" },
    el("option", { value: "mine", text: `${who(me)}: every decision` }),
    el("option", { value: "flagged", text: "Every seat: the flagged decisions" }),
    el("option", { value: "all", text: "Every seat: every decision" }));
  filter.addEventListener("change", () => show(filter.value));
  show("mine");
  return [
    answer.whole_game ? null : el("p", { class: "msg", "data-kind": "info",
      text: "Only the last deal is reviewed: this sealed game's final state holds its last deal's actions, not the earlier deals' (a service that writes state format 3 keeps them: docs/deals.md)." }),
    summary(answer, who),
    el("h3", { text: "Decisions" }),
    el("div", { class: "row" }, el("label", {}, "Show ", filter)),
    count,
    el("table", { id: "review-decisions", class: "review-decisions" },
      el("caption", { class: "sr-only", text: "Each decision: the action taken, the better one, what it cost and its category" }),
      el("thead", {}, el("tr", {},
        el("th", { scope: "col", class: "num", text: "Deal" }), el("th", { scope: "col", text: "Seat" }),
        el("th", { scope: "col", text: "Taken" }), el("th", { scope: "col", text: "Better" }),
        el("th", { scope: "col", class: "num", text: "Cost (points)" }), el("th", { scope: "col", class: "num", text: "Cost (chance)" }),
        el("th", { scope: "col", text: "Category" }))),
      body),
  ].filter(Boolean);
}
