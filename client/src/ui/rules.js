// The rules page (#/rules): the rules in players' words, in the page's language, illustrated by the
// client's own board renderer drawing the lessons' starting positions (GET /api/lessons).
import { el, clear } from './dom.js';
import { BoardView } from '../boardview.js';
import { SIZE } from '../board.js';
import { cellCenter } from '../hex.js';
import { SVG_NS, toDom } from '../vdom.js';
import { mapTree, CELL } from '../expeditions/board.js';

/** A viewBox fitting the tiles closely (the table's leaves room around them for play). */
function tightBox(view) {
  const pts = (view.tiles || []).map((t) => cellCenter(t.cell, SIZE));
  const xs = pts.map((p) => p.x), ys = pts.map((p) => p.y);
  const x0 = Math.min(...xs) - SIZE * 1.1, y0 = Math.min(...ys) - SIZE, x1 = Math.max(...xs) + SIZE * 1.1, y1 = Math.max(...ys) + SIZE;
  return `${x0} ${y0} ${x1 - x0} ${y1 - y0}`;
}

// [title key, text key, lesson whose board illustrates it (or null), the lesson's board once its moves are
// made ('after': a new colonisation done, the last tile placed) rather than at its start]
const SECTIONS = [
  ['rules.title', 'rules.goal', null],
  [null, 'rules.components', 'end'],
  ['learn.setup.title', 'rules.setup', 'expand'],
  [null, 'rules.turn', null],
  ['learn.expand.title', 'rules.expand', null],
  ['learn.voyage.title', 'rules.migration', 'voyage'],
  [null, 'rules.voyage', null],
  ['learn.landing.title', 'rules.landing', 'chain'],
  ['learn.royal.title', 'rules.royal', 'turn_back'],
  ['learn.colonise.title', 'rules.colonise', 'colonise', 'after'],
  ['learn.end.title', 'rules.end', 'end', 'after'],
  [null, 'rules.variants', null],
];

// Expeditions (EXPEDITIONS.md), each picture the starting map of its lesson, drawn by the Expeditions map
const EX_SECTIONS = [
  ['rules.ex.title', 'rules.ex.goal', null],
  ['learn.ex_orders.title', 'rules.ex.orders', 'ex_orders'],
  ['learn.ex_migration.title', 'rules.ex.migration', 'ex_migration'],
  ['learn.ex_weather.title', 'rules.ex.weather', 'ex_weather'],
  ['learn.ex_typhoon.title', 'rules.ex.typhoon', 'ex_typhoon'],
  ['learn.ex_end.title', 'rules.ex.end', 'ex_end'],
];

/** An Expeditions map as a still picture. */
function exPicture(figure, view) {
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('class', 'board-svg ex-map');
  // the tiles closely (the table's view leaves a cell of sea around them for play)
  const xs = view.tiles.map((x) => x.cell[0]), ys = view.tiles.map((x) => x.cell[1]), pad = 12;
  const x0 = (Math.min(...xs) - 1) * CELL - pad, y0 = (Math.min(...ys) - 1) * CELL - pad;
  svg.setAttribute('viewBox', `${x0} ${y0} ${(Math.max(...xs) - Math.min(...xs) + 1) * CELL + 2 * pad} ${(Math.max(...ys) - Math.min(...ys) + 1) * CELL + 2 * pad}`);
  svg.appendChild(toDom(mapTree(view, {})));
  figure.append(svg);
}

export async function renderRules({ t }, root) {
  const page = el('article', { class: 'rules panel', 'data-testid': 'rules' });
  clear(root).append(page);
  let start = {}, after = {};
  try { ({ lessons: start = {}, after = {} } = await (await fetch('/api/lessons')).json()); } catch { /* text only */ }
  for (const [title, text, lesson, when] of SECTIONS) {
    const views = when === 'after' ? after : start;
    const section = el('section', { class: 'rule', 'data-rule': text });
    if (title) section.append(el(title === 'rules.title' ? 'h2' : 'h3', { text: t(title) }));
    section.append(el('p', { text: t(text) }));
    if (lesson && views[lesson]) {
      const figure = el('figure', { class: 'rule-board', 'data-lesson': lesson, 'data-when': when || 'start' });
      section.append(figure);
      page.append(section);
      const board = new BoardView(figure, { still: true });
      board.render(views[lesson], {});
      board.svg.setAttribute('viewBox', tightBox(views[lesson]));
      continue;
    }
    page.append(section);
  }
  for (const [title, text, lesson] of EX_SECTIONS) {
    const section = el('section', { class: 'rule', 'data-rule': text });
    section.append(el(title === 'rules.ex.title' ? 'h2' : 'h3', { text: t(title) }), el('p', { text: t(text) }));
    if (lesson && start[lesson]) {
      const figure = el('figure', { class: 'rule-board ex-rule-board', 'data-lesson': lesson });
      exPicture(figure, start[lesson]);
      section.append(figure);
    }
    page.append(section);
  }
  page.append(el('p', {}, el('a', { href: '#/learn', class: 'button', 'data-testid': 'rules-learn', text: t('lobby.how') }), ' ',
    el('a', { href: '#/', class: 'button', text: t('misc.back') })));
}
