// The end of a game, a moment over the board: the final scores first, then "Rematch", "Watch the
// replay", "Back to lobby", and the invitation to a rematch another player asked for (docs/protocol.md §4
// `rematch`); and a spectator's way to rewind a game still being played.
import { el, clear } from './dom.js';

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
   *  (the table's top line, shown on every screen size). `room` the room's session (`id`, `state`, `invite`),
   *  `me()` the person this page is, `rematch()` asks for the rematch (or accepts it) and takes the person there. */
  constructor({ t, room, me, rematch }, anchor, rewindSlot) {
    this.t = t; this.room = room; this.me = me; this.askRematch = rematch;
    this.el = el('div', { class: 'end-actions', 'data-testid': 'end-actions', hidden: true });
    this.rewindSlot = rewindSlot;
    anchor.after(this.el);
    this.update();
  }

  update() {
    const t = this.t, r = this.room;
    const box = this.el;
    const me = this.me();
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

  /** Ask for the rematch (or accept it: the same request), once at a time. */
  async rematch() {
    if (this.busy) return;
    this.busy = true;
    try { await this.askRematch(); } finally { this.busy = false; }
  }
}
