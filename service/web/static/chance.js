// A side's chance of winning as the game goes: the figure the service gives in each
// game view (`win_probability`, one per side, read from its table at the start of a
// deal), kept deal by deal and drawn as a small SVG chart with the figure now.  The
// page computes no odds: without the field nothing is drawn.

import { svgEl } from "./svg.js";

const W = 320;
const H = 130;
const PAD = { left: 38, right: 12, top: 10, bottom: 24 };

export const percent = (p) => `${Math.round(p * 100)}%`;

/** The answer's chances per side, or null when the service gives none. */
export function winProbability(answer) {
  const w = (answer.view && answer.view.win_probability) || answer.win_probability;
  return Array.isArray(w) && w.every((x) => typeof x === "number") ? w : null;
}

export class Chance {
  /** @param {number} side whose chance */
  constructor(side) {
    this.side = side;
    this.points = []; // [{deal, p, over}], one per deal, the game's end last
  }

  /** Note the chance an answer gives; true when there is one. */
  note(answer) {
    const w = winProbability(answer);
    if (!w || w[this.side] === undefined) return false;
    const over = answer.phase === "over";
    const p = w[this.side];
    const last = this.points[this.points.length - 1];
    if (last && last.deal === answer.deal && last.over === over) last.p = p;
    else this.points.push({ deal: answer.deal, p, over });
    return true;
  }

  get now() {
    return this.points.length ? this.points[this.points.length - 1] : null;
  }

  /** The chart: the chance at each deal's start (and at the end), 0 to 100 %. */
  draw(title) {
    const pts = this.points;
    const n = Math.max(pts.length - 1, 1);
    const x = (i) => PAD.left + (i * (W - PAD.left - PAD.right)) / n;
    const y = (p) => PAD.top + (1 - p) * (H - PAD.top - PAD.bottom);
    const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, class: "chance-chart", role: "img", "aria-labelledby": "chance-title" });
    const t = svgEl("title", { id: "chance-title" });
    t.textContent = title + ": " + pts.map((q) => `${q.over ? "at the end" : `deal ${q.deal}`} ${percent(q.p)}`).join(", ");
    svg.append(t);
    for (const p of [0, 0.5, 1]) {
      svg.append(svgEl("line", { x1: PAD.left, x2: W - PAD.right, y1: y(p), y2: y(p), class: p === 0.5 ? "even" : "grid" }));
      const label = svgEl("text", { x: PAD.left - 6, y: y(p) + 4, "text-anchor": "end", class: "axis" });
      label.textContent = percent(p);
      svg.append(label);
    }
    // the deals along the bottom: the first, the last and a few between
    const step = Math.max(1, Math.ceil(pts.length / 8));
    pts.forEach((q, i) => {
      if (i % step && i !== pts.length - 1) return;
      const label = svgEl("text", { x: x(i), y: H - 6, "text-anchor": "middle", class: "axis" });
      label.textContent = q.over ? "end" : String(q.deal);
      svg.append(label);
    });
    if (pts.length > 1) {
      svg.append(svgEl("polyline", { points: pts.map((q, i) => `${x(i)},${y(q.p)}`).join(" "), class: "line" }));
    }
    pts.forEach((q, i) => svg.append(svgEl("circle", {
      cx: x(i), cy: y(q.p), r: i === pts.length - 1 ? 4.5 : 3, class: i === pts.length - 1 ? "dot now" : "dot",
      "data-deal": q.deal, "data-p": q.p,
    })));
    return svg;
  }
}
