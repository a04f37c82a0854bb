// The lobby: nickname, open tables and live games (updated live), create a table, join by code.
import { el, clear, swatch } from './dom.js';
import { COLOURS } from '../board.js';
import { renderWelcome } from './welcome.js';
import { renderReach } from './reach.js';

const COLOUR_NAMES = Object.keys(COLOURS);   // the seats' colours in RULES.md R1's order

// An Expeditions turn's deadline: from live play to play over days (seconds, and how it reads)
export const DEADLINES = [[30, '30 s'], [60, '1 min'], [120, '2 min'], [300, '5 min'], [3600, '1 h'], [86400, '24 h'], [259200, '72 h']];

/** Puts `node` in `list` (the form shows or hides the list's nodes together) and returns it. */
function mark(list, node) { list.push(node); return node; }

/** The lobby in `root`. `page`: what every page is given (main.js `page`), and `rooms()` the lobby's rooms by id,
 *  `setName(name)`, `createRoom(settings)`, `joinCode(code)`. Returns `{ update, reach }`: `update()` after the
 *  rooms changed; `reach` the "Your turns" panel (its owner destroys it when the lobby is drawn again). */
export function renderLobby(page, root) {
  const t = page.t;
  clear(root);
  const nameInput = el('input', { type: 'text', maxlength: 24, value: page.session()?.name || '', 'data-testid': 'nickname', 'aria-label': t('lobby.nickname') });
  const nameForm = el('form', { class: 'nickname', onsubmit: async (e) => { e.preventDefault(); await page.setName(nameInput.value); } },
    el('label', {}, t('lobby.nickname'), ' ', nameInput), el('button', { type: 'submit', 'data-testid': 'save-name' }, t('lobby.save')));

  // create a table
  const f = {
    name: el('input', { type: 'text', maxlength: 40, 'data-testid': 'table-name', value: t('lobby.default_name', { name: page.session()?.name || 'Guest' }) }),
    seats: el('select', { 'data-testid': 'seats' }, [2, 3, 4, 5, 6].map((n) => el('option', { value: n, text: String(n) }))),
    two: el('input', { type: 'checkbox', 'data-testid': 'two-colours' }),
    free: el('input', { type: 'checkbox', 'data-testid': 'free-follow-up' }),
    priv: el('input', { type: 'checkbox', 'data-testid': 'private' }),
    clock: el('input', { type: 'number', min: 5, max: 600, placeholder: '—', 'data-testid': 'clock' }),
    pace: el('input', { type: 'number', min: 0, max: 10, step: 0.1, value: 1, 'data-testid': 'bot-pace' }),
    grace: el('input', { type: 'number', min: 0, max: 600, value: 30, 'data-testid': 'grace' }),
    first: el('select', { 'data-testid': 'first' }),
    game: el('select', { 'data-testid': 'create-game' }, ['tongiaki', 'expeditions'].map((g) => el('option', { value: g, text: t(`ex.game.${g}`) }))),
    deadline: el('select', { 'data-testid': 'create-deadline' }, DEADLINES.map(([s, label]) => el('option', { value: s, text: label }))),
  };
  f.deadline.value = '86400';
  // Expeditions has no variants and no starting seat; its clock is the turn deadline (docs/protocol.md §14)
  const tongiakiOnly = [];
  const expeditionsOnly = [];
  const showGame = () => {
    const ex = f.game.value === 'expeditions';
    for (const node of tongiakiOnly) node.hidden = ex;
    for (const node of expeditionsOnly) node.hidden = !ex;
  };
  f.game.addEventListener('change', showGame);
  f.seats.value = '3';
  const fillFirst = () => {
    const n = Number(f.seats.value);
    clear(f.first).append(el('option', { value: '', text: t('lobby.first_random') }),
      ...Array.from({ length: n }, (_, i) => el('option', { value: i, text: t('lobby.first_seat', { n: i + 1 }) })));
  };
  fillFirst();
  f.seats.addEventListener('change', fillFirst);
  f.two.addEventListener('change', () => { if (f.two.checked) { f.seats.value = '2'; fillFirst(); } });
  const createForm = el('form', {
    class: 'create', 'data-testid': 'create-form',
    onsubmit: async (e) => {
      e.preventDefault();
      const name = f.name.value.trim() || t('lobby.default_name', { name: page.session()?.name || 'Guest' });
      if (f.game.value === 'expeditions') {
        await page.createRoom({ name, game: 'expeditions', seats: Number(f.seats.value), private: f.priv.checked, clock: Number(f.deadline.value),
          bot_pace: f.pace.value === '' ? 1 : Number(f.pace.value), grace: f.grace.value === '' ? 30 : Number(f.grace.value) });
        return;
      }
      const settings = {
        name,
        seats: f.two.checked ? 2 : Number(f.seats.value),
        variants: { two_colours: f.two.checked, free_follow_up: f.free.checked },
        private: f.priv.checked,
        clock: f.clock.value ? Number(f.clock.value) : null,
        bot_pace: f.pace.value === '' ? 1 : Number(f.pace.value),
        grace: f.grace.value === '' ? 30 : Number(f.grace.value),
        first: f.first.value === '' ? null : Number(f.first.value),
      };
      await page.createRoom(settings);
    },
  },
  el('h2', { text: t('lobby.create') }),
  field(t('ex.game'), f.game),
  field(t('lobby.table_name'), f.name), field(t('lobby.seats'), f.seats),
  mark(tongiakiOnly, field(t('lobby.first'), f.first)),
  mark(tongiakiOnly, check(t('lobby.two_colours'), f.two)), mark(tongiakiOnly, check(t('lobby.free_follow_up'), f.free)), check(t('lobby.private'), f.priv),
  mark(tongiakiOnly, field(t('lobby.clock'), f.clock)), mark(expeditionsOnly, field(t('ex.deadline'), f.deadline)),
  field(t('lobby.bot_pace'), f.pace), field(t('lobby.grace'), f.grace),
  el('button', { type: 'submit', class: 'primary', 'data-testid': 'create' }, t('lobby.create_btn')));

  const code = el('input', { type: 'text', maxlength: 12, 'data-testid': 'code-input', 'aria-label': t('lobby.code') });
  const codeForm = el('form', { class: 'join-code', onsubmit: (e) => { e.preventDefault(); if (code.value.trim()) page.joinCode(code.value.trim().toUpperCase()); } },
    el('label', {}, t('lobby.join_code'), ' ', code), el('button', { type: 'submit' }, t('lobby.join')));

  const openList = el('ul', { class: 'rooms', 'data-testid': 'open-rooms' });
  const liveList = el('ul', { class: 'rooms', 'data-testid': 'live-rooms' });
  const welcome = renderWelcome(page);
  const reach = renderReach(page);
  root.append(welcome.el, el('div', { class: 'lobby' },
    el('section', { class: 'panel lobby-me' }, nameForm, codeForm),
    reach.el,
    el('section', { class: 'panel' }, el('h2', { text: t('lobby.open') }), openList),
    el('section', { class: 'panel' }, el('h2', { text: t('lobby.live') }), liveList),
    el('section', { class: 'panel' }, createForm)));
  showGame();

  const update = () => {
    const rooms = [...page.rooms().values()].sort((a, b) => (b.created || 0) - (a.created || 0));
    fillList(page, openList, rooms.filter((r) => r.status === 'waiting'));
    fillList(page, liveList, rooms.filter((r) => r.status === 'playing'));
    welcome.refresh();
    reach.refresh(true);   // a table started or ended: the list may change (at most every 3 s)
  };
  update();
  return { update, reach };
}

function field(label, input) { return el('label', { class: 'field' }, el('span', { text: label }), input); }
function check(label, input) { return el('label', { class: 'check' }, input, ' ', label); }

function fillList(page, list, rooms) {
  const t = page.t;
  clear(list);
  if (!rooms.length) { list.append(el('li', { class: 'muted', text: t('lobby.none') })); return; }
  for (const r of rooms) {
    const taken = (r.players || []).length;
    const vs = [];
    if (r.variants?.two_colours) vs.push(t('lobby.two_colours'));
    if (r.variants?.free_follow_up) vs.push(t('lobby.free_follow_up'));
    if (r.game === 'expeditions') vs.unshift(t('ex.mode'));
    list.append(el('li', { class: 'room-item', 'data-room': r.id, 'data-status': r.status },
      el('div', { class: 'room-title' }, el('strong', { text: r.name }), ' ', el('span', { class: `tag st-${r.status}`, text: t(`status.${r.status}`) })),
      el('div', { class: 'room-meta' },
        Array.from({ length: r.seats }, (_, i) => swatch(COLOUR_NAMES[i % COLOUR_NAMES.length])), ' ',
        t('lobby.players', { n: taken, seats: r.seats }), ' · ',
        (r.players || []).map((p) => p.name).join(', '),
        r.spectators ? ` · ${t('lobby.spectators', { n: r.spectators })}` : '',
        vs.length ? ` · ${vs.join(', ')}` : ''),
      el('button', { type: 'button', 'data-testid': r.status === 'waiting' ? 'join-room' : 'watch-room', onclick: () => page.go(`room/${r.id}`) },
        r.status === 'waiting' ? t('lobby.join') : t('lobby.watch'))));
  }
}
