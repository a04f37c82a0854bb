// The waiting room: seats (sit, stand, bots), host controls (start), settings, chat.
import { el, clear, swatch } from './dom.js';
import { DEADLINES } from './lobby.js';

/** The bot levels of the server (server/bots/levels.py), weakest first. */
export const BOT_LEVELS = ['random', 'greedy', 'search'];

/** A bot seat's tag: "bot · strong". */
export function botTag(t, seat) {
  return el('span', { class: 'tag bot', 'data-level': seat.level || '', text: seat.level ? `${t('room.bot')} · ${t(`bot.${seat.level}`)}` : t('room.bot') });
}

/** The waiting room of `room` (its state) for the person `me`: `request(event, extra)` sends a request about the
 *  room (seats, bots, start), `leave()` goes back to the lobby, `toast(text)` says something briefly. */
export function renderWaiting({ t, room, me, request, leave, toast }, root, chatSlot) {
  const isHost = room.host === me;
  const mySeats = room.seats.filter((s) => s.person === me);
  clear(root);
  const seats = el('ul', { class: 'seats', 'data-testid': 'seat-list' });
  for (const s of room.seats) {
    const btns = [];
    const kept = s.kind === 'empty' && s.held_for && s.held_for !== me;   // a rematch's seat, kept for its player
    if (kept) {
      // only the person it is kept for may sit (anyone else is refused); the host may open it to anyone
      if (isHost) btns.push(el('button', { type: 'button', 'data-testid': `kick-${s.seat}`, onclick: () => request('kick', { seat: s.seat }) }, t('room.open_seat')));
    } else if (s.kind === 'empty') {
      btns.push(el('button', { type: 'button', 'data-testid': `sit-${s.seat}`, onclick: () => request('sit', { seat: s.seat }) }, t('room.sit')));
      if (isHost) btns.push(el('button', { type: 'button', 'data-testid': `bot-add-${s.seat}`, onclick: () => request('bot_add', { seat: s.seat }) }, t('room.add_bot')));
    } else if (s.kind === 'bot') {
      if (isHost) {
        const level = el('select', { 'data-testid': `bot-level-${s.seat}`, 'aria-label': t('bot.level'),
          onchange: () => request('bot_level', { seat: s.seat, level: level.value }) },
        BOT_LEVELS.map((l) => el('option', { value: l, text: t(`bot.${l}`) })));
        level.value = s.level || 'greedy';
        btns.push(level);
        btns.push(el('button', { type: 'button', 'data-testid': `bot-remove-${s.seat}`, onclick: () => request('bot_remove', { seat: s.seat }) }, t('room.remove_bot')));
      }
    } else if (s.person === me) {
      btns.push(el('button', { type: 'button', 'data-testid': `stand-${s.seat}`, onclick: () => request('stand', { seat: s.seat }) }, t('room.stand')));
    } else if (isHost && s.kind === 'human') {   // a squatter or an absent person: the host frees the seat
      btns.push(el('button', { type: 'button', 'data-testid': `kick-${s.seat}`, onclick: () => request('kick', { seat: s.seat }) }, t('room.kick')));
    }
    const tags = [];
    if (s.kind === 'bot') tags.push(botTag(t, s));
    if (s.person && s.person === room.host) tags.push(el('span', { class: 'tag', text: t('room.host') }));
    if (s.person && s.person === me) tags.push(el('span', { class: 'tag you', text: t('room.you') }));
    if (s.kind === 'human' && !s.connected) tags.push(el('span', { class: 'tag offline', text: t('room.disconnected') }));
    seats.append(el('li', { class: `seat seat-${s.kind}`, 'data-seat': s.seat },
      el('span', { class: 'seat-colours' }, (s.colours || []).map((c) => swatch(c))),
      el('span', { class: 'seat-name', text: kept ? t('room.kept') : s.kind === 'empty' ? t('room.empty') : (s.name || '?') }), ' ', tags,
      el('span', { class: 'seat-buttons' }, btns)));
  }
  const ctrl = el('div', { class: 'room-controls' });
  ctrl.append(el('button', { type: 'button', 'data-testid': 'leave', onclick: () => leave() }, t('room.leave')));
  if (isHost) {
    const full = room.seats.every((s) => s.kind !== 'empty');
    // the primary action is the one that starts now: with every seat taken, Start; else fill with bots
    ctrl.append(el('button', { type: 'button', class: full ? 'primary' : '', 'data-testid': 'start', disabled: !full, onclick: () => request('room_start', { fill_with_bots: false }) }, t('room.start')));
    ctrl.append(el('button', { type: 'button', class: full ? '' : 'primary', 'data-testid': 'start-bots', onclick: () => request('room_start', { fill_with_bots: true }) }, t('room.start_bots')));
  } else {
    ctrl.append(el('p', { class: 'muted', text: mySeats.length ? t('room.waiting_for') : t('room.spectating') }));
  }
  const st = room.settings || {};
  // each game's own settings: Expeditions has no variants and no starting seat, its clock is the turn deadline
  const ex = st.game === 'expeditions';
  const settings = el('dl', { class: 'settings', 'data-testid': 'room-settings' },
    dt(t('lobby.table_name'), st.name || ''),
    dt(t('ex.game'), t(`ex.game.${ex ? 'expeditions' : 'tongiaki'}`)),
    dt(t('lobby.seats'), String(room.seats.length)),
    ex ? dt(t('ex.deadline'), deadlineWords(st.clock)) : [
      dt(t('lobby.two_colours'), st.variants?.two_colours ? '✓' : '—'),
      dt(t('lobby.free_follow_up'), st.variants?.free_follow_up ? '✓' : '—'),
      dt(t('lobby.clock'), st.clock ? `${st.clock}s` : '—'),
      dt(t('lobby.first'), st.first === null || st.first === undefined ? t('lobby.first_random') : t('lobby.first_seat', { n: st.first + 1 }))],
    dt(t('lobby.bot_pace'), `${st.bot_pace ?? 1}s`));
  root.append(el('div', { class: 'waiting' },
    el('section', { class: 'panel' }, el('h2', { text: t('room.seats') }), seats, ctrl),
    el('section', { class: 'panel' }, el('h3', { text: t('room.settings') }), settings,
      room.code ? el('p', { class: 'code', 'data-testid': 'room-code', text: t('room.code', { code: room.code }) }) : null,
      room.code ? el('p', {}, el('a', { href: `#/code/${encodeURIComponent(room.code)}`, 'data-testid': 'invite-link',
        onclick: (e) => { e.preventDefault(); navigator.clipboard?.writeText(`${location.origin}${location.pathname}#/code/${room.code}`).catch(() => {}); toast(t('misc.copied')); } }, t('misc.copy_link'))) : null),
    el('section', { class: 'panel chat-panel' }, el('h3', { text: t('panel.chat') }), chatSlot)));
}

/** An Expeditions deadline in seconds as the create form names it ("30 s", "24 h"). */
function deadlineWords(s) {
  return DEADLINES.find(([n]) => n === s)?.[1] || (s ? `${s} s` : '—');
}

function dt(k, v) { return [el('dt', { text: k }), el('dd', { text: v })]; }
