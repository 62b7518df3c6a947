// The drawn board (SVG): a track per side in streets of 30 holes, serpentine as on a
// wooden board, the start holes, the game hole, and two pegs per side: the front peg
// is the score, the back peg the score before the last one pegged.
// It draws what it is given; the scores come from the API (or the player's entries).

const NS = "http://www.w3.org/2000/svg";
const STREET = 30;
const HOLE = 26; // hole pitch
const GROUP_GAP = 12; // between groups of five
const ROW = 18; // between the tracks of a street
const LEFT = 84;
export const COLORS = ["red", "blue", "green"];

function svgEl(tag, attrs = {}) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

export class Board {
  /**
   * @param {Element} host  where the SVG goes
   * @param {number} sides  2 or 3 tracks
   * @param {number} target 121 or 61 (the game hole)
   * @param {object} marks  hole -> label, e.g. {61: "double-skunk line", 91: "skunk line"}
   */
  constructor(host, sides, target, marks) {
    this.sides = sides;
    this.target = target;
    this.streets = Math.ceil((target - 1) / STREET);
    this.streetHeight = sides * ROW + 26;
    const height = this.streets * this.streetHeight + 56;
    this.svg = svgEl("svg", {
      viewBox: `0 0 1000 ${height}`, class: "board", role: "img", "aria-labelledby": "board-title",
    });
    this.title = svgEl("title", { id: "board-title" });
    this.svg.append(this.title, svgEl("rect", { x: 2, y: 2, width: 996, height: height - 4, rx: 18, class: "wood" }));
    for (let st = 0; st < this.streets; st++) {
      const y = 12 + st * this.streetHeight;
      this.svg.append(svgEl("rect", { x: LEFT - 14, y, width: 30 * HOLE + 5 * GROUP_GAP + 2, height: this.streetHeight - 10, rx: 8, class: "street" }));
      const first = st * STREET + 1;
      const last = first + STREET - 1;
      const leftLabel = st % 2 === 0 ? first : last;
      const rightLabel = st % 2 === 0 ? last : first;
      this.text(LEFT - 20, y + this.streetHeight / 2, String(leftLabel), "end", "hole-label");
      this.text(LEFT + 30 * HOLE + 5 * GROUP_GAP - 4, y + this.streetHeight / 2, String(rightLabel), "start", "hole-label");
    }
    for (let side = 0; side < sides; side++) {
      for (let v = 1; v < target; v++) {
        const [x, y] = this.at(side, v);
        this.svg.append(svgEl("circle", { cx: x, cy: y, r: 3.2, class: `hole track-${COLORS[side]}` }));
      }
      for (const v of [0, -1]) {
        const [x, y] = this.at(side, v);
        this.svg.append(svgEl("circle", { cx: x, cy: y, r: 3.6, class: "hole start" }));
      }
    }
    const [gx, gy] = this.at(0, target);
    this.svg.append(svgEl("circle", { cx: gx, cy: gy, r: 9, class: "hole game" }));
    this.text(gx + 18, gy + 5, `${target} game hole`, "start", "hole-label");
    for (const [hole, label] of Object.entries(marks)) this.mark(Number(hole), label);
    this.pegs = [];
    for (let side = 0; side < sides; side++) {
      const back = svgEl("circle", { r: 6.5, class: `peg back ${COLORS[side]}`, "data-side": side, "data-peg": "back" });
      const front = svgEl("circle", { r: 7.5, class: `peg front ${COLORS[side]}`, "data-side": side, "data-peg": "front" });
      this.svg.append(back, front);
      this.pegs.push({ back, front });
    }
    host.replaceChildren(this.svg);
  }

  text(x, y, s, anchor, cls) {
    const t = svgEl("text", { x, y, "text-anchor": anchor, "dominant-baseline": "middle", class: cls });
    t.textContent = s;
    this.svg.append(t);
    return t;
  }

  /** The centre of hole v of a side's track (v <= 0: the start holes, target: the game hole). */
  at(side, v) {
    if (v >= this.target) return [LEFT - 40, 12 + this.streets * this.streetHeight + 18];
    if (v <= 0) return [v === 0 ? LEFT - 52 : LEFT - 70, 12 + 13 + side * ROW];
    const street = Math.floor((v - 1) / STREET);
    const idx = (v - 1) % STREET;
    const col = street % 2 === 0 ? idx : STREET - 1 - idx;
    const x = LEFT + col * HOLE + Math.floor(col / 5) * GROUP_GAP;
    return [x, 12 + street * this.streetHeight + 13 + side * ROW];
  }

  /** A line across the street just before hole `hole`, with its label in the margin. */
  mark(hole, label) {
    const street = Math.floor((hole - 1) / STREET);
    const leftToRight = street % 2 === 0;
    const [x] = this.at(0, hole);
    const lx = leftToRight ? x - HOLE / 2 : x + HOLE / 2;
    const y = 12 + street * this.streetHeight;
    const g = svgEl("g", { class: "mark", "data-mark": hole });
    const t = svgEl("title");
    t.textContent = `${hole}: ${label}`;
    g.append(t, svgEl("line", { x1: lx, y1: y - 2, x2: lx, y2: y + this.streetHeight - 8 }));
    const tx = leftToRight ? lx - 6 : lx + 6;
    const lab = svgEl("text", { x: tx, y: y + this.streetHeight - 2, "text-anchor": leftToRight ? "end" : "start", class: "mark-label" });
    lab.textContent = `${hole} ${label.replace(" line", "")}`;
    g.append(lab);
    this.svg.append(g);
  }

  /** Place the pegs: sides = [{name, front, back}] (scores as the API answers them). */
  set(sides) {
    const said = [];
    sides.forEach((s, side) => {
      const { back, front } = this.pegs[side];
      const fb = s.front === s.back && s.front === 0;
      this.place(back, side, fb ? -1 : s.back, s.back);
      this.place(front, side, s.front, s.front);
      said.push(`${s.name} ${s.front}${s.front !== s.back ? ` (back peg ${s.back})` : ""}`);
    });
    this.title.textContent = `The board: ${said.join(", ")}.`;
  }

  place(peg, side, hole, value) {
    let [x, y] = this.at(side, hole);
    peg.style.transform = `translate(${x}px, ${y}px)`;
    peg.dataset.value = value;
  }
}

export function skunkMarks(target) {
  return target === 121 ? { 61: "double-skunk line", 91: "skunk line" } : { 31: "skunk line" };
}
