// A tiny virtual-node layer: the board is computed as plain objects (pure, testable in Node), then
// mounted into SVG elements. Text always goes through textContent / text nodes: no HTML injection.

export const SVG_NS = 'http://www.w3.org/2000/svg';

export function h(tag, attrs, ...children) {
  const flat = [];
  const push = (c) => {
    if (c === null || c === undefined || c === false) return;
    if (Array.isArray(c)) c.forEach(push);
    else flat.push(typeof c === 'object' ? c : String(c));
  };
  children.forEach(push);
  return { tag, attrs: attrs || {}, children: flat };
}

/** Create real DOM nodes for a vnode (SVG namespace when `svg` is true). */
export function toDom(vnode, doc = globalThis.document, svg = true) {
  if (typeof vnode === 'string') return doc.createTextNode(vnode);
  const isSvg = svg || vnode.tag === 'svg';
  const el = isSvg ? doc.createElementNS(SVG_NS, vnode.tag) : doc.createElement(vnode.tag);
  for (const [k, v] of Object.entries(vnode.attrs)) {
    if (v === null || v === undefined || v === false) continue;
    el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of vnode.children) el.appendChild(toDom(c, doc, isSvg && vnode.tag !== 'foreignObject'));
  return el;
}

const ESC = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ESC[c]);

/** Serialise a vnode to markup (tests, debugging). */
export function toMarkup(vnode) {
  if (typeof vnode === 'string') return esc(vnode);
  const attrs = Object.entries(vnode.attrs)
    .filter(([, v]) => v !== null && v !== undefined && v !== false)
    .map(([k, v]) => ` ${k}="${esc(v === true ? '' : v)}"`).join('');
  return `<${vnode.tag}${attrs}>${vnode.children.map(toMarkup).join('')}</${vnode.tag}>`;
}

/** Depth-first search for vnodes matching a predicate. */
export function findAll(vnode, pred, out = []) {
  if (typeof vnode === 'string') return out;
  if (pred(vnode)) out.push(vnode);
  for (const c of vnode.children) findAll(c, pred, out);
  return out;
}
