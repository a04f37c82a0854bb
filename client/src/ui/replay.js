// A finished game played again (#/replay/<id>) on the same board with the same animations: the record
// and its frames come from the server (GET /api/games/<id>[/replay], docs/protocol.md §12); the views
// are rebuilt here by applying the frames' patches, so stepping anywhere is instant.
import { el, clear } from './dom.js';
import { applyPatch } from '../patch.js';
import { Table } from './table.js';

/** Every version's view and events from the frames `{v, events, patch}`. */
export function unfold(frames) {
  const views = [], events = [];
  let view = null;
  for (const f of frames) { view = applyPatch(view, f.patch); views.push(view); events.push(f.events || []); }
  return { views, events };
}

/** The first version of each turn (set-up is turn 0), in order: [[turn, v], …]. */
export function turnStarts(views) {
  const out = [];
  views.forEach((view, v) => { if (!out.length || out[out.length - 1][0] !== view.turn) out.push([view.turn, v]); });
  return out;
}

export class Replay {
  constructor(app, root, id) {
    this.app = app;
    this.t = app.t;
    this.root = root;
    this.id = id;
    this.v = 0;
    this.playing = false;
    this.gone = false;
    clear(root).append(el('p', { class: 'muted', text: this.t('misc.loading') }));
  }

  async load() {
    const [rec, fr] = await Promise.all([fetchJson(`/api/games/${encodeURIComponent(this.id)}`),
      fetchJson(`/api/games/${encodeURIComponent(this.id)}/replay`)]);
    if (this.gone) return;
    if (!rec || !fr) {
      clear(this.root).append(el('p', { class: 'muted', 'data-testid': 'replay-missing', text: this.t('replay.missing') }),
        el('a', { href: '#/', text: this.t('misc.back') }));
      return;
    }
    this.record = rec;
    Object.assign(this, unfold(fr.frames));
    this.turns = turnStarts(this.views);
    this.build();
    this.show(0, false);
  }

  /** What the Table reads of "the room": the record's seats, no person of ours, no legal actions. */
  facade() {
    const rec = this.record;
    const seats = rec.seats.map((s) => ({ ...s, connected: true, autopilot: false }));
    return {
      t: this.t, session: null, act: async () => ({ ok: false, error: { code: 'replay' } }),
      room: { id: `replay:${rec.id}`, state: { seats, settings: rec.settings, spectators: 0, status: 'finished' },
        stream: { v: 0, legalNow: () => null } },
    };
  }

  build() {
    const t = this.t, rec = this.record;
    const btn = (id, label, title, fn) => el('button', { type: 'button', 'data-testid': `replay-${id}`, title, 'aria-label': title, onclick: fn }, label);
    this.posEl = el('span', { class: 'replay-pos', 'data-testid': 'replay-pos' });
    this.turnInput = el('input', { type: 'number', min: 0, value: 0, 'data-testid': 'replay-turn', 'aria-label': t('replay.turn') });
    this.playBtn = btn('play', '▶', t('replay.play'), () => (this.playing ? this.pause() : this.play()));
    const bar = el('div', { class: 'replay-bar', 'data-testid': 'replay-bar' },
      el('strong', { text: t('replay.title', { name: rec.name }) }), ' ',
      btn('start', '|‹', t('replay.start'), () => this.jump(0)),
      btn('prev-turn', '«', t('replay.prev_turn'), () => this.stepTurn(-1)),
      btn('prev', '‹', t('replay.prev'), () => this.jump(this.v - 1)),
      this.playBtn,
      btn('next', '›', t('replay.next'), () => this.step()),
      btn('next-turn', '»', t('replay.next_turn'), () => this.stepTurn(1)),
      btn('end', '›|', t('replay.end'), () => this.jump(this.views.length - 1)),
      el('form', { class: 'replay-jump', onsubmit: (e) => { e.preventDefault(); this.jumpTurn(Number(this.turnInput.value)); } },
        el('label', {}, t('replay.turn'), ' ', this.turnInput), el('button', { type: 'submit', 'data-testid': 'replay-go' }, t('replay.go'))),
      this.posEl,
      el('a', { href: '#/', class: 'replay-back', 'data-testid': 'replay-back', text: t('misc.back') }));
    const holder = el('div', { class: 'table-holder' });
    clear(this.root).append(bar, holder);
    this.view = this.facade();
    this.table = new Table(this.view, holder);
    this.table._saveLogSoon = () => {};   // the saved log belongs to the live room, not to a replay
    this.table.chatSlot.append(el('p', { class: 'muted', text: t('replay.players', { names: rec.seats.map((s) => s.name).join(', ') }) }));
  }

  /** Version v on the board: animated when it is the next one, else at once. */
  show(v, animate) {
    v = Math.max(0, Math.min(this.views.length - 1, v));
    const table = this.table;
    if (animate && v === this.v + 1) {
      table.playMessage(this.views[this.v], this.events[v], this.views[v]);
    } else {
      table.log = [];
      clear(table.logEl);
      table.loadSnapshot(this.views[v]);
    }
    this.v = v;
    this.view.room.stream.v = v;
    this.drawPos();
  }

  drawPos() {
    const view = this.views[this.v];
    this.posEl.textContent = this.t('replay.position', { v: this.v, n: this.views.length - 1, turn: view.turn });
    this.posEl.dataset.v = String(this.v);
    this.turnInput.value = String(view.turn);
    this.playBtn.textContent = this.playing ? `❚❚ ${this.t('replay.pause')}` : `▶ ${this.t('replay.play')}`;
    this.playBtn.title = this.t(this.playing ? 'replay.pause' : 'replay.play');
  }

  step() { if (this.v < this.views.length - 1) this.show(this.v + 1, true); }
  jump(v) { this.pause(); this.show(v, false); }

  jumpTurn(turn) {
    const found = this.turns.find(([n]) => n >= turn) || this.turns[this.turns.length - 1];
    this.jump(found[1]);
  }

  stepTurn(dir) {
    const here = this.views[this.v].turn;
    if (dir > 0) { const next = this.turns.find(([n]) => n > here); this.jump(next ? next[1] : this.views.length - 1); return; }
    const start = this.turns.filter(([, v]) => v < this.v);   // the start of this turn, or of the one before
    const cur = this.turns.find(([n]) => n === here);
    this.jump(cur && cur[1] < this.v ? cur[1] : (start.length >= 2 ? start[start.length - 2][1] : 0));
  }

  async play() {
    if (this.playing) return;
    if (this.v >= this.views.length - 1) this.show(0, false);
    this.playing = true;
    this.drawPos();
    while (this.playing && !this.gone && this.v < this.views.length - 1) {
      this.step();
      await this.table.queue.push(() => {});
      const speed = this.table.queue.speed;
      await new Promise((r) => setTimeout(r, speed ? 250 / speed : 0));
    }
    this.playing = false;
    if (!this.gone) this.drawPos();
  }

  pause() { this.playing = false; if (this.posEl) this.drawPos(); }

  destroy() { this.gone = true; this.playing = false; this.table?.destroy(); }
}

async function fetchJson(url) {
  try {
    const r = await fetch(url);
    return r.ok ? await r.json() : null;
  } catch { return null; }
}
