// Table chat: players and spectators. Lines are plain text (textContent), never HTML.
import { el, clear } from './dom.js';

export class Chat {
  /** `t` the translator; `me()` the person this page is (their lines are marked); `seats()` the room's seats (a
   *  line's colour); `send(text)` sends a line (answered by an ack); `refused(error)` tells a refusal. */
  constructor({ t, me, seats, send, refused }) {
    this.t = t; this.me = me; this.seats = seats; this.sendLine = send; this.refused = refused;
    this.seen = new Set();
    this.lines = [];
    this.list = el('ol', { class: 'chat-lines', 'data-testid': 'chat-lines' });
    this.input = el('input', { type: 'text', maxlength: 300, placeholder: t('chat.placeholder'), 'aria-label': t('panel.chat'), 'data-testid': 'chat-input' });
    this.form = el('form', { class: 'chat-form', onsubmit: (e) => { e.preventDefault(); this.send(); } },
      this.input, el('button', { type: 'submit', 'data-testid': 'chat-send' }, t('chat.send')));
    this.node = el('div', { class: 'chat' }, this.list, this.form);
  }

  mount(slot) { clear(slot).append(this.node); this.list.scrollTop = this.list.scrollHeight; }

  add(line) {
    if (!line || this.seen.has(line.id)) return;
    this.seen.add(line.id);
    this.lines.push(line);
    const me = line.person && line.person === this.me();
    const seat = (this.seats() || []).find((s) => s.seat === line.seat);
    const colour = seat?.colours?.[0];
    this.list.append(el('li', { class: me ? 'mine' : '' },
      colour ? el('span', { class: `swatch c-${colour}` }) : null,
      el('b', { text: `${line.name || '?'}: ` }), el('span', { class: 'chat-text', text: line.text })));
    while (this.list.children.length > 200) this.list.removeChild(this.list.firstChild);
    this.list.scrollTop = this.list.scrollHeight;
  }

  async send() {
    const text = this.input.value.trim();
    if (!text) return;
    const res = await this.sendLine(text.slice(0, 300));
    if (res.ok) this.input.value = '';
    else this.refused(res.error);
  }
}
