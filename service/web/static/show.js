// A count's combinations as the service lists them (POST /v1/hands/score's
// `breakdown`): one row per combination, the hand's five cards with those it uses
// marked.  The scorer and the table's show both draw a count this way; neither adds
// anything up itself.
import { cardEl, kindWords, el } from "./cards.js";

/** The table rows of a scored hand (the answer of POST /v1/hands/score). */
export function comboRows(body) {
  const five = [...body.cards, body.starter];
  const rows = body.breakdown.map((item) => {
    const on = new Set(item.cards);
    const cards = el("div", { class: "cards" }, ...five.map((c) => {
      const m = cardEl(c);
      m.classList.add("mini", on.has(c) ? "on" : "off");
      return m;
    }));
    return el("tr", { class: "combo", "data-kind": item.kind, "data-cards": item.cards.join(",") },
      el("td", { text: kindWords(item.kind) }),
      el("td", {}, cards, el("span", { class: "sr-only", text: ` ${item.cards.length} cards used` })),
      el("td", { class: "num", text: String(item.points) }));
  });
  if (!rows.length) rows.push(el("tr", {}, el("td", { colspan: 3, text: "No scoring combination." })));
  return rows;
}

/** A table of a scored hand's combinations, with a caption (shown or for screen readers). */
export function comboTable(body, caption, { hiddenCaption = true } = {}) {
  return el("table", { class: "combos" },
    el("caption", { class: hiddenCaption ? "sr-only" : "", text: caption }),
    el("thead", {}, el("tr", {},
      el("th", { scope: "col", text: "Combination" }), el("th", { scope: "col", text: "Cards" }),
      el("th", { scope: "col", class: "num", text: "Points" }))),
    el("tbody", {}, ...comboRows(body)));
}
