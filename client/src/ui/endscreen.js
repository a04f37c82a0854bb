// The end of a game, beside the final scores: "Rematch", "Watch the replay", "Back to lobby", and the
// invitation to a rematch another player asked for (docs/protocol.md §4 `rematch`).
import { el, clear } from './dom.js';

export class EndScreen {
  /** Placed right after `anchor` (the table's result panel). */
  constructor(app, anchor) {
    this.app = app;
    this.el = el('div', { class: 'end-actions panel', 'data-testid': 'end-actions', hidden: true });
    anchor.after(this.el);
    this.update();
  }

  update() {
    const app = this.app, t = app.t, r = app.room;
    const box = this.el;
    const me = app.session?.person;
    const played = (r?.state?.seats || []).some((s) => s.kind === 'human' && s.person === me);
    const replayable = r?.state?.settings?.game !== 'expeditions';   // the replay page draws the board game
    if (r && r.state?.status === 'playing' && !played) {
      if (!replayable) { box.hidden = true; return; }   // a spectator may rewind the game so far
      box.hidden = false;
      clear(box).append(el('a', { class: 'button', href: `#/replay/${r.id}`, 'data-testid': 'rewind', text: t('replay.rewind') }));
      return;
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
    if (replayable) row.append(el('a', { class: 'button', href: `#/replay/${r.id}`, 'data-testid': 'end-replay', text: t('end.replay') }));
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
      if (!res.ok) { app.toast(app.t('err.server', { message: res.error?.message || res.error?.code })); return; }
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
