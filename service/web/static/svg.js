// SVG elements for the pages' drawings (the board, card faces, the chance chart).

export const NS = "http://www.w3.org/2000/svg";

/** An SVG element with its attributes (strings) and children. */
export function svgEl(tag, attrs = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  node.append(...children);
  return node;
}
