// The end of a game, a moment over the board: the final scores first, then "Rematch", "Watch the
// replay", "Back to lobby", and the invitation to a rematch another player asked for (docs/protocol.md §4
// `rematch`); and a spectator's way to rewind a game still being played.
import { el, clear } from './dom.js';
import { refusal } from '../i18n.js';

/** The end of a game over the board (both rule sets' tables): the table's result panel, which it shows
 *  once the last move has played, then the buttons (EndScreen places them after it). It folds away to
 *  look at the board, and back. Shown exactly while the result is (app.css). */
export function endMoment(t, resultEl) {
  const fold = el('button', { type: 'button', class: 'fold', 'data-testid': 'end-fold', 'aria-expanded': 'true',
    onclick: () => {
      const folded = box.classList.toggle('folded');
      fold.setAttribute('aria-expanded', String(!folded));
      fold.textContent = t(folded ? 'end.unfold' : 'end.fold');
    } }, t('end.fold'));
  const box = el('div', { class: 'end-moment', 'data-testid': 'end-moment' }, resultEl, fold);
  return box;
}

export class EndScreen {
  /** Placed right after `anchor` (the table's result panel); a spectator's rewind goes in `rewindSlot`
   *  (the table's top line, shown on every screen size). */
  constructor(app, anchor, rewindSlot) {
    this.app = app;
    this.el = el('div', { class: 'end-actions', 'data-testid': 'end-actions', hidden: true });
    this.rewindSlot = rewindSlot;
    anchor.after(this.el);
    this.update();
  }

  update() {
    const app = this.app, t = app.t, r = app.room;
    const box = this.el;
    const me = app.session?.person;
    const played = (r?.state?.seats || []).some((s) => s.kind === 'human' && s.person === me);
    const watching = r && r.state?.status === 'playing' && !played;   // a spectator may rewind the game so far
    if (this.rewindSlot) {
      clear(this.rewindSlot).append(watching ? el('a', { class: 'button', href: `#/replay/${r.id}`, 'data-testid': 'rewind', text: t('replay.rewind') }) : []);
    }
    if (!r || r.state?.status !== 'finished') { box.hidden = true; return; }
    box.hidden = false;
    clear(box);
    const invite = r.invite && r.invite.by !== me ? r.invite : null;
    if (invite) {
      box.append(el('div', { class: 'invite', 'data-testid': 'rematch-invite' }, t('end.invited', { name: invite.name }), ' ',
        el('button', { type: 'button', class: 'primary', 'data-testid': 'rematch-accept', onclick: () => this.rematch() }, t('end.accept'))));
    }
    const row = el('div', { class: 'buttons' });
    if (played && !invite) row.append(el('button', { type: 'button', class: 'primary', 'data-testid': 'end-rematch', onclick: () => this.rematch() }, t('end.rematch')));
    row.append(el('a', { class: 'button', href: `#/replay/${r.id}`, 'data-testid': 'end-replay', text: t('end.replay') }));
    row.append(el('a', { class: 'button', href: '#/', 'data-testid': 'end-back', text: t('end.back') }));
    box.append(row);
  }

  /** Ask for the rematch (or accept it: the same request), go to its room and sit in our old seat. */
  async rematch() {
    const app = this.app, r = app.room;
    if (!r || this.busy) return;
    this.busy = true;
    try {
      const res = await app.net.request('rematch', { room: r.id });
      if (!res.ok) { app.toast(refusal(app.t, res.error)); return; }
      await app.enterRoom(res.room);
      if (app.room?.id !== res.room) return;
      const me = app.session?.person;
      const seat = (res.seats || [])[0];
      const held = app.room.state?.seats?.[seat];
      if (seat !== undefined && !(held && held.person === me)) await app.roomRequest('sit', { seat });
      app.go(`room/${res.room}`);
    } finally { this.busy = false; }
  }
}
