// A finished game played again (#/replay/<id>) on the same board with the same animations: the record
// and its frames come from the server (GET /api/games/<id>[/replay], docs/protocol.md §12); the views
// are rebuilt here by applying the frames' patches, so stepping anywhere is instant.
import { el, clear } from './dom.js';
import { applyPatch } from '../patch.js';
import { apiJson } from '../net.js';
import { Table } from './table.js';
import { TableState } from './tablestate.js';
import { GameLog, eventEntry } from './gamelog.js';
import { initialSpeed } from './eventplayer.js';
import { ExpeditionsTable, turnOf } from '../expeditions/table.js';
import { reportOf } from '../expeditions/words.js';

/** A replay's log: shown, never saved (the saved log belongs to the person's live room). */
export class QuietLog extends GameLog {
  _saveSoon() {}
  clear() { this.items.length = 0; this.v = null; }
}

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

/** The turn reports a replay's table holds at version `v` (`reports`: each version's report or null): those of
 *  the turns resolved up to it; while the first turn is still being ordered, that turn's report, told ahead
 *  (`ahead`: stepped through on the map the turn leaves, not on the position's). */
export function replayReports(reports, v) {
  const resolved = reports.slice(0, v + 1).filter(Boolean);
  if (resolved.length) return resolved;
  const first = reports.find(Boolean);
  return first ? [{ ...first, ahead: true }] : [];
}

export class Replay {
  constructor(page, root, id) {
    this.page = page;
    this.t = page.t;
    this.root = root;
    this.id = id;
    this.v = 0;
    this.playing = false;
    this.gone = false;
    clear(root).append(el('p', { class: 'muted', text: this.t('misc.loading') }));
  }

  async load() {
    const [rec, fr] = await Promise.all([apiJson(`/api/games/${encodeURIComponent(this.id)}`),
      apiJson(`/api/games/${encodeURIComponent(this.id)}/replay`)]);
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
    this.show(rec.live ? this.views.length - 1 : 0, false);   // a live game is rewound from its present
  }

  /** The table's state: the record's seats as "the room", nobody of ours, never any legal action. */
  tableState() {
    const rec = this.record;
    const seats = rec.seats.map((s) => ({ ...s, connected: true, autopilot: false }));
    return new TableState({ room: { id: `replay:${rec.id}`, seats, settings: rec.settings, spectators: 0, status: 'finished' },
      me: null, v: 0, legal: null });
  }

  build() {
    const t = this.t, rec = this.record;
    const btn = (id, label, title, fn) => el('button', { type: 'button', 'data-testid': `replay-${id}`, title, 'aria-label': title, onclick: fn }, label);
    // an arrow drawn left to right, turned over on a right-to-left page (app.css): "back" points to its start
    const arrow = (id, glyph, title, fn) => btn(id, el('span', { class: 'arrow', text: glyph }), title, fn);
    this.posEl = el('span', { class: 'replay-pos', 'data-testid': 'replay-pos' });
    this.turnInput = el('input', { type: 'number', min: 0, value: 0, 'data-testid': 'replay-turn', 'aria-label': t('replay.turn') });
    this.playBtn = btn('play', '▶', t('replay.play'), () => (this.playing ? this.pause() : this.play()));
    const bar = el('div', { class: 'replay-bar', 'data-testid': 'replay-bar' },
      el('strong', { text: t('replay.title', { name: rec.name }) }), ' ',
      arrow('start', '|‹', t('replay.start'), () => this.jump(0)),
      arrow('prev-turn', '«', t('replay.prev_turn'), () => this.stepTurn(-1)),
      arrow('prev', '‹', t('replay.prev'), () => this.jump(this.v - 1)),
      this.playBtn,
      arrow('next', '›', t('replay.next'), () => this.step()),
      arrow('next-turn', '»', t('replay.next_turn'), () => this.stepTurn(1)),
      arrow('end', '›|', t('replay.end'), () => this.jump(this.views.length - 1)),
      el('form', { class: 'replay-jump', onsubmit: (e) => { e.preventDefault(); this.jumpTurn(Number(this.turnInput.value)); } },
        el('label', {}, t('replay.turn'), ' ', this.turnInput), el('button', { type: 'submit', 'data-testid': 'replay-go' }, t('replay.go'))),
      this.posEl,
      rec.live ? el('a', { href: `#/room/${rec.id}`, class: 'replay-back', 'data-testid': 'replay-live', text: t('replay.live') })
        : el('a', { href: '#/', class: 'replay-back', 'data-testid': 'replay-back', text: t('misc.back') }));
    const holder = el('div', { class: 'table-holder' });
    clear(this.root).append(bar, holder);
    // the table below takes the screen's height less the bar's (which wraps on a narrow screen)
    this._barSize = new ResizeObserver(() => this.root.style.setProperty('--replay-bar', `${bar.offsetHeight}px`));
    this._barSize.observe(bar);
    this.state = this.tableState();
    const act = async () => ({ ok: false, error: { code: 'replay' } });
    // each rule set replays on its own table: Expeditions' map and turn reports, Tongiaki's board and log
    this.expeditions = rec.settings?.game === 'expeditions';
    if (this.expeditions) {
      const speed = initialSpeed();
      this.table = new ExpeditionsTable(holder, { state: this.state, t, act, replay: true, speed: () => speed });
      // each turn's report with the map it left (the version that resolved it), as a live table keeps them
      this.reports = this.events.map((ev, v) => { const r = reportOf(ev); return r.length ? { turn: turnOf(r), events: r, view: this.views[v] } : null; });
    } else {
      this.log = new QuietLog(`replay:${rec.id}`);
      this.table = new Table(holder, { state: this.state, log: this.log, t, act, replay: true });
    }
    this.table.chatSlot.append(el('p', { class: 'muted', text: t('replay.players', { names: rec.seats.map((s) => s.name).join(', ') }) }));
  }

  /** Version v on the board: animated when it is the next one, else at once. */
  show(v, animate) {
    v = Math.max(0, Math.min(this.views.length - 1, v));
    const table = this.table;
    if (this.expeditions) {
      table.replayAt(this.views[v], replayReports(this.reports, v), animate && v === this.v + 1 && !!this.reports[v]);
    } else if (animate && v === this.v + 1) {
      table.show({ status: 'applied', prev: this.views[this.v], events: this.events[v], view: this.views[v] });
    } else {
      // a jump: the log of every version up to this one, as if it had been played
      this.log.clear();
      const items = [];
      for (let k = 1; k <= v; k++) {
        for (const ev of this.events[k]) { const entry = eventEntry(ev, this.t); if (entry) items.push({ ...entry, v: k }); }
      }
      this.log.fill(items, 0, v);
      table.show({ status: 'snapshot', view: this.views[v] });
    }
    this.v = v;
    this.state.set({ v });
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
      await this.settled();
      const speed = this.expeditions ? this.table.speed() : this.table.queue.speed;
      await new Promise((r) => setTimeout(r, speed ? 250 / speed : 0));
    }
    this.playing = false;
    if (!this.gone) this.drawPos();
  }

  /** Once the version just shown has played on the board. */
  async settled() {
    if (!this.expeditions) { await this.table.queue.push(() => {}); return; }
    while (this.table.animating && !this.gone) await new Promise((r) => setTimeout(r, 50));
  }

  pause() { this.playing = false; if (this.posEl) this.drawPos(); }

  destroy() {
    this.gone = true; this.playing = false; this.table?.destroy();
    this._barSize?.disconnect();
    this.root.style.removeProperty('--replay-bar');
  }
}
