// Small DOM helpers. Text is always set with textContent (never innerHTML).
import { markOf, markPath } from '../marks.js';

export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'text') e.textContent = String(v);
    else if (k === 'class') e.className = v;
    else if (k.startsWith('on') && typeof v === 'function') e.addEventListener(k.slice(2), v);
    else if (k === 'value') e.value = v;
    else if (k === 'checked') e.checked = !!v;
    else if (k === 'style' && typeof v === 'object') Object.assign(e.style, v);
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    e.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
  return e;
}

export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

/** A seat chip: the colour, with the colour's mark in white (told apart without seeing colour). */
export function swatch(colour) {
  const NS = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', '-1 -1 2 2');
  const path = document.createElementNS(NS, 'path');
  path.setAttribute('d', markPath(markOf(colour), 0, 0, 0.52));
  svg.appendChild(path);
  return el('span', { class: `swatch c-${colour}`, 'aria-hidden': 'true', 'data-mark': markOf(colour) }, svg);
}

/** A colour with the name of who plays it: "Blue (Ann)"; the name alone when it already says the colour
 *  ("Blue (tutor)"), the colour alone without a name. */
export function colourAndName(t, colour, name) {
  const word = t(`colour.${colour}`);
  if (!name) return word;
  return name.toLowerCase().includes(word.toLowerCase()) ? name : `${word} (${name})`;
}

/** A player's name with their colour: "Ann (Blue)"; the name alone when it already says the colour. */
export function nameAndColour(t, colour, name) {
  const word = t(`colour.${colour}`);
  if (!name) return word;
  return name.toLowerCase().includes(word.toLowerCase()) ? name : `${name} (${word})`;
}
