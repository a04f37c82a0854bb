// A room's screen, drawn for its session (roomsession.js): the waiting room with its chat, or, once the game
// has begun, the table of the room's rule set (one interface: ui/table.js, expeditions/table.js) with the end
// of the game's buttons and the chat, fed by the session.
import { el, clear } from './dom.js';
import { refusal } from '../i18n.js';
import { renderWaiting } from './room.js';
import { Table } from './table.js';
import { ExpeditionsTable } from '../expeditions/table.js';
import { backfillLog } from './gamelog.js';
import { Chat } from './chat.js';
import { EndScreen } from './endscreen.js';

/** The chat of room `r` (its lines kept from `old`, the chat in the language before a switch). `page`: the
 *  page's narrow interface (main.js `page`). */
export function roomChat(r, page, old = null) {
  const c = new Chat({ t: page.t, me: () => page.session()?.person, seats: () => r.state?.seats,
    send: (text) => r.send('chat', { text }), refused: (e) => page.toast(refusal(page.t, e)) });
  if (old) for (const line of old.lines) c.add(line);
  return c;
}

/** Draws room `r` in `main`: the waiting room while its game has not begun, else its table, made once (a
 *  language switch drops it to be made again). `rematch()` asks for the rematch and goes there. */
export function renderRoomScreen(r, main, page, { rematch }) {
  const t = page.t, me = () => page.session()?.person;
  if (r.waiting) {
    if (r.table) { r.table.destroy(); r.table = null; }
    const slot = el('div', { class: 'chat-slot' });
    renderWaiting({ t, room: r.state, me: me(), request: (ev, extra) => r.request(ev, extra),
      leave: () => page.go(''), toast: page.toast }, main, slot);
    r.chat.mount(slot);
    return;
  }
  if (r.table) return;
  const holder = el('div', { class: 'table-holder' });
  clear(main).append(holder);
  const Kind = r.state?.settings?.game === 'expeditions' ? ExpeditionsTable : Table;
  r.table = new Kind(holder, { state: r.tableState, log: r.log, t, act: (a, colour) => r.act(a, colour),
    history: () => r.history(),
    lateLog: (after, upTo) => backfillLog(r.log, r.id, upTo ?? r.stream.v ?? 0, t, undefined, after, r.state?.code),
    keepDraft: true, seen: (turn) => r.seen(turn), withdraw: (colour) => r.withdraw(colour) });
  r.end = new EndScreen({ t, room: r, me, rematch }, r.table.panels.resultEl, r.table.rewindSlot);
  r.chat.mount(r.table.chatSlot);
  if (r.stream.view) r.table.show({ status: 'snapshot', view: r.stream.view, v: r.stream.v });
}
