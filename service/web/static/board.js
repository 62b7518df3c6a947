// The drawn board (SVG): a track per side in streets of 30 holes, serpentine as on a
// wooden board, the start holes, the game hole, and two pegs per side: the front peg
// is the score, the back peg the score before the last one pegged.  On a narrow
// screen the board stands upright (streets top to bottom) so the holes stay large,
// unless the page asks for a strip: lying down, low and wide, with large pegs, for a
// page that keeps the board in view above other things (the table on a phone).
// It draws what it is given; the scores come from the API (or the players' entries).

import { svgEl } from "./svg.js";
const STREET = 30;
export const COLORS = ["red", "blue", "green"];


export class Board {
  /**
   * @param {Element} host  where the SVG goes
   * @param {number} sides  2 or 3 tracks
   * @param {number} target 121 or 61 (the game hole)
   * @param {object} marks  hole -> label, e.g. {61: "double-skunk line", 91: "skunk line"}
   * @param {object} [how]  {strip: true}: lying down whatever the width, pegs and labels large
   */
  constructor(host, sides, target, marks, { strip = false } = {}) {
    this.sides = sides;
    this.target = target;
    this.upright = !strip && (host.clientWidth || window.innerWidth) < 640;
    this.pitch = this.upright ? 15 : 26;
    this.gap = this.upright ? 8 : 12;
    this.row = strip ? 26 : 18; // between the tracks of a street
    this.left = 84;
    this.streets = Math.ceil((target - 1) / STREET);
    this.streetHeight = sides * this.row + 34;
    this.length = this.left + STREET * this.pitch + 5 * this.gap + 40;
    this.depth = this.streets * this.streetHeight + 52;
    const [w, h] = this.P(this.length, this.depth);
    this.svg = svgEl("svg", {
      viewBox: `0 0 ${w} ${h}`, class: `board${this.upright ? ` upright streets-${this.streets}` : ""}${strip ? " strip" : ""}`,
      role: "img", "aria-labelledby": "board-title",
    });
    this.title = svgEl("title", { id: "board-title" });
    this.svg.append(this.title, this.rect(2, 2, this.length - 4, this.depth - 4, "wood", 18));
    const span = STREET * this.pitch + 5 * this.gap;
    for (let st = 0; st < this.streets; st++) {
      const y = this.top(st);
      this.svg.append(this.rect(this.left - 14, y, span + 2, this.streetHeight - 18, "street", 8));
      const first = st * STREET + 1;
      const last = first + STREET - 1;
      const mid = y + (this.streetHeight - 18) / 2;
      this.text(this.left - 20, mid, String(st % 2 === 0 ? first : last), "end", "hole-label");
      this.text(this.left + span - 4, mid, String(st % 2 === 0 ? last : first), "start", "hole-label");
    }
    for (let side = 0; side < sides; side++) {
      for (let v = 1; v < target; v++) this.circle(...this.at(side, v), strip ? 4.5 : 3.2, `hole track-${COLORS[side]}`);
      for (const v of [0, -1]) this.circle(...this.at(side, v), strip ? 5 : 3.6, "hole start");
    }
    const [gx, gy] = this.at(0, target);
    this.circle(gx, gy, 9, "hole game");
    this.text(gx + 16, gy, this.upright ? String(target) : `${target} game hole`, "start", "hole-label", true);
    for (const [hole, label] of Object.entries(marks)) this.mark(Number(hole), label);
    this.pegs = [];
    const r = strip ? 12 : this.upright ? 6 : 7.5;
    for (let side = 0; side < sides; side++) {
      const back = svgEl("circle", { r: r - 1, class: `peg back ${COLORS[side]}`, "data-side": side, "data-peg": "back" });
      const front = svgEl("circle", { r, class: `peg front ${COLORS[side]}`, "data-side": side, "data-peg": "front" });
      this.svg.append(back, front);
      this.pegs.push({ back, front });
    }
    host.replaceChildren(this.svg);
  }

  /** Board coordinates (along the street, across) to the SVG's: swapped when upright. */
  P(x, y) { return this.upright ? [y, x] : [x, y]; }

  top(street) { return 12 + street * this.streetHeight; }

  rect(x, y, w, h, cls, rx) {
    const [px, py] = this.P(x, y);
    const [pw, ph] = this.P(w, h);
    return svgEl("rect", { x: px, y: py, width: pw, height: ph, rx, class: cls });
  }

  circle(x, y, r, cls) {
    const [cx, cy] = this.P(x, y);
    this.svg.append(svgEl("circle", { cx, cy, r, class: cls }));
  }

  text(x, y, s, anchor, cls, keepAnchor = false) {
    const [px, py] = this.P(x, y);
    const t = svgEl("text", {
      x: px, y: py, "text-anchor": this.upright && !keepAnchor ? "middle" : anchor, "dominant-baseline": "middle", class: cls,
    });
    if (this.upright && !keepAnchor) t.setAttribute("dominant-baseline", anchor === "end" ? "auto" : "hanging");
    t.textContent = s;
    this.svg.append(t);
    return t;
  }

  /** The centre of hole v of a side's track, in board coordinates (v <= 0: the start holes). */
  at(side, v) {
    if (v >= this.target) return [this.left - 40, this.top(this.streets) + 14];
    if (v <= 0) return [v === 0 ? this.left - 52 : this.left - 70, this.top(0) + 13 + side * this.row];
    const street = Math.floor((v - 1) / STREET);
    const idx = (v - 1) % STREET;
    const col = street % 2 === 0 ? idx : STREET - 1 - idx;
    const x = this.left + col * this.pitch + Math.floor(col / 5) * this.gap;
    return [x, this.top(street) + 13 + side * this.row];
  }

  /** A line across the street just before hole `hole`, labelled in the gap beside the street. */
  mark(hole, label) {
    const street = Math.floor((hole - 1) / STREET);
    const forward = street % 2 === 0;
    const [x] = this.at(0, hole);
    const lx = forward ? x - this.pitch / 2 : x + this.pitch / 2;
    const y = this.top(street);
    const g = svgEl("g", { class: "mark", "data-mark": hole, "aria-label": `${hole}: ${label}` });
    const t = svgEl("title");
    t.textContent = `${hole}: ${label}`;
    const [x1, y1] = this.P(lx, y - 4);
    const [x2, y2] = this.P(lx, y + this.streetHeight - 16);
    g.append(t, svgEl("line", { x1, y1, x2, y2 }));
    const [tx, ty] = this.P(forward ? lx + 4 : lx - 4, y + this.streetHeight - 9);
    const lab = svgEl("text", {
      x: tx, y: ty, "text-anchor": forward === !this.upright ? "start" : "end",
      "dominant-baseline": "middle", class: "mark-label",
    });
    if (this.upright) lab.setAttribute("transform", `rotate(-90 ${tx} ${ty})`);
    lab.textContent = `${hole}: ${label}`;
    g.append(lab);
    this.svg.append(g);
  }

  /** Place the pegs: sides = [{name, front, back}] (scores as the API answers them). */
  set(sides) {
    const said = [];
    sides.forEach((s, side) => {
      const { back, front } = this.pegs[side];
      this.place(back, side, s.front === 0 && s.back === 0 ? -1 : s.back, s.back);
      this.place(front, side, s.front, s.front);
      said.push(`${s.name} ${s.front}${s.front !== s.back ? ` (back peg ${s.back})` : ""}`);
    });
    this.title.textContent = `The board: ${said.join(", ")}.`;
  }

  place(peg, side, hole, value) {
    const [x, y] = this.P(...this.at(side, hole));
    peg.style.transform = `translate(${x}px, ${y}px)`;
    peg.dataset.value = value;
  }
}

/** The lines a board marks: 61 and 91 on a 121 board, 31 on a 61 board. */
export function skunkMarks(target) {
  return target === 121 ? { 61: "double-skunk line", 91: "skunk line" } : { 31: "skunk line" };
}
