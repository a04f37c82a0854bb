// The game table: board, decision bar, animation controls and the side panel (players, stack, log,
// result). It renders the server's views and sends intents; it never runs the rules.
import { el, clear, swatch } from './dom.js';
import { BoardView } from '../boardview.js';
import { DecisionInput } from '../input.js';
import { AnimationQueue } from '../queue.js';
import { applyEventToDisplay } from '../display.js';
import { describeEvent, describeAction } from '../describe.js';
import { cellKey, neighbour } from '../hex.js';

const SPEEDS = [['slow', 0.5], ['normal', 1], ['fast', 2.5], ['instant', 0]];

export function initialSpeed() {
  try {
    const q = new URLSearchParams(location.search).get('anim');
    if (q !== null) return Number(q);
    const s = localStorage.getItem('tongiaki.speed');
    if (s !== null) return Number(s);
  } catch { /* ignore */ }
  return 1;
}

export class Table {
  constructor(app, root) {
    this.app = app;
    this.t = app.t;
    this.root = root;
    this.input = new DecisionInput();
    this.queue = new AnimationQueue({ speed: initialSpeed(), skipWhen: () => !!globalThis.document?.hidden });
    this.shown = null;           // the view on screen (while animating: the display view)
    this.target = null;          // the latest view from the server
    this.recent = new Set();
    this.log = [];
    this.sending = false;
    this.build();
  }

  build() {
    const t = this.t;
    this.decisionEl = el('div', { class: 'decision', 'data-testid': 'decision', 'aria-live': 'polite' });
    this.boardWrap = el('div', { class: 'board-wrap' });
    this.board = new BoardView(this.boardWrap, { onHit: (hit) => this.onHit(hit) });
    const zoom = el('div', { class: 'zoom-controls' },
      el('button', { type: 'button', class: 'icon', title: '+', onclick: () => this.board.zoomBy(1.25) }, '+'),
      el('button', { type: 'button', class: 'icon', title: '−', onclick: () => this.board.zoomBy(0.8) }, '−'),
      el('button', { type: 'button', class: 'icon', title: '⤢', 'data-testid': 'fit', onclick: () => this.board.fit() }, '⤢'));
    this.boardWrap.appendChild(zoom);
    this.speedSel = el('select', { 'data-testid': 'speed', 'aria-label': t('anim.speed'), onchange: () => this.setSpeed(Number(this.speedSel.value)) },
      SPEEDS.map(([k, v]) => el('option', { value: v, text: t(`anim.${k}`) })));
    if (!SPEEDS.some(([, v]) => v === this.queue.speed)) {
      this.speedSel.append(el('option', { value: this.queue.speed, text: `×${this.queue.speed}` }));
    }
    this.speedSel.value = String(this.queue.speed);
    this.skipBtn = el('button', { type: 'button', 'data-testid': 'skip', onclick: () => this.queue.skip() }, t('anim.skip'));
    this.animBar = el('div', { class: 'anim-bar' }, el('label', {}, t('anim.speed'), ' ', this.speedSel), this.skipBtn);
    this.statusEl = el('div', { class: 'game-status', 'data-testid': 'game-status' });
    this.toastEl = el('div', { class: 'toast', role: 'status', 'data-testid': 'toast' });

    this.playersEl = el('div', { class: 'players', 'data-testid': 'players' });
    this.stackEl = el('div', { class: 'stack', 'data-testid': 'stack' });
    this.logEl = el('ol', { class: 'log', 'data-testid': 'log' });
    this.resultEl = el('div', { class: 'result', 'data-testid': 'result', hidden: true });
    this.chatSlot = el('div', { class: 'chat-slot' });

    const main = el('section', { class: 'table-main' }, el('div', { class: 'table-top' }, this.statusEl, this.animBar), this.decisionEl, this.boardWrap, this.toastEl);
    const side = el('aside', { class: 'side' },
      this.resultEl,
      el('section', { class: 'panel' }, el('h3', { text: t('panel.players') }), this.playersEl),
      el('section', { class: 'panel' }, el('h3', { text: t('panel.stack') }), this.stackEl),
      el('section', { class: 'panel log-panel' }, el('h3', { text: t('panel.log') }), this.logEl),
      el('section', { class: 'panel chat-panel' }, el('h3', { text: t('panel.chat') }), this.chatSlot));
    clear(this.root).appendChild(el('div', { class: 'table' }, main, side));
    this._keys = (e) => this.onKey(e);
    document.addEventListener('keydown', this._keys);
  }

  setSpeed(s) {
    this.queue.setSpeed(s);
    try { localStorage.setItem('tongiaki.speed', String(s)); } catch { /* ignore */ }
  }

  /** The colours this client plays (from the room's seats and our person id). */
  myColours() {
    const room = this.app.room?.state;
    const me = this.app.session?.person;
    if (!room || !me) return [];
    return room.seats.filter((s) => s.person === me && s.kind === 'human').flatMap((s) => s.colours);
  }

  seatOfColour(colour) {
    return (this.app.room?.state?.seats || []).find((s) => (s.colours || []).includes(colour)) || null;
  }

  // ------------------------------------------------------------------ incoming state
  /** A fresh snapshot: drop queued animations, show it as is. */
  loadSnapshot(view) {
    this.queue.clear();
    this.board.clearOverlay();
    this.target = view;
    this.queue.push(async () => { this.shown = view; this.recent = new Set(); this.refresh(); }).then(() => this.settled());
    if (!this.log.length && view.phase === 'play') this.addLog({ text: this.t('phase.play', { turn: view.turn }) });
  }

  /** An applied game message: play its events, then show the new view. */
  playMessage(prev, events, view) {
    this.target = view;
    // far behind (a hidden tab, a long catch-up): jump to the present instead of replaying it all
    if (this.queue.pending > 60 || globalThis.document?.hidden) this.queue.skip();
    const tasks = [];
    let disp = null;
    tasks.push(async () => {
      disp = this.shown || prev || view;
      this.recent = new Set();
      this.animating = true;
      this.refresh();
    });
    for (const ev of events) tasks.push((ctx) => this.playEvent(ctx, ev, () => disp, (d) => { disp = d; }));
    tasks.push(async () => {
      this.board.clearOverlay();
      this.animating = false;
      this.shown = view;
      this.refresh();
    });
    this.queue.pushAll(tasks).then(() => this.settled());
  }

  /** Called when a batch of animations ended: when nothing else is queued, the decision becomes live. */
  settled() {
    if (!this.queue.busy && this.shown) this.refresh();
  }

  /** Our legal actions came (usually just after the view they belong to): the decision becomes live. */
  legalArrived() {
    if (!this.queue.busy && !this.animating && this.shown) this.refresh();
  }

  /** The legal actions of the view on screen, when it is the latest and they have come. */
  legalShown() {
    return this.shown === this.target ? (this.app.room?.stream?.legalNow() ?? null) : null;
  }

  async playEvent(ctx, ev, getDisp, setDisp) {
    const b = this.board;
    const text = describeEvent(ev, this.t);
    const type = ev.type === 'crossing' ? (ev.passed ? 'crossing_pass' : 'crossing_fail') : ev.type;
    if (text) this.addLog({ text, colour: ev.colour || (ev.type === 'turn_passed' ? ev.to : null), type, ev });
    const show = (d) => { setDisp(d); this.shown = d; this.drawBoard(); };
    switch (ev.type) {
      case 'fleet_departed': {
        const d = applyEventToDisplay(getDisp(), ev);
        show(d);
        b.showFleet(ev.boats || [], b.cellPoint(ev.cell));
        await b.moveFleetTo(ctx, b.sidePoint(ev.cell, ev.pier), 450);
        this.fleetDir = ev.pier;
        this.fleetCell = ev.cell;
        return;
      }
      case 'tile_drawn': {
        this.flashStatus(text);
        await ctx.wait(250);
        return;
      }
      case 'tile_placed': {
        const d = applyEventToDisplay(getDisp(), ev);
        this.recent.add(cellKey(ev.cell));
        show(d);
        await b.flipIn(ctx, ev.cell, 550);
        return;
      }
      case 'path_followed': {
        if (!b.fleetNode) b.showFleet([], b.sidePoint(ev.cell, ev.entry));
        await b.sailPath(ctx, ev.cell, ev.entry, ev.exit, 650);
        this.fleetCell = ev.cell; this.fleetDir = ev.exit;
        return;
      }
      case 'crossing': {
        if (!ev.passed || ev.danger) await b.flash(ctx, ev.cell, ev.passed ? 'pass' : 'fail', `${ev.danger} vs ${ev.colours}`, 500);
        return;
      }
      case 'sunk': {
        await b.sink(ctx, 700);
        return;
      }
      case 'turned_back': {
        await b.flash(ctx, ev.cell, 'royal', '↩', 400);
        await b.moveFleetTo(ctx, b.cellPoint(ev.to), 700);
        return;
      }
      case 'fleet_arrived': {
        if (!b.fleetNode) b.showFleet(ev.boats || [], b.cellPoint(ev.cell));
        await b.moveFleetTo(ctx, b.cellPoint(ev.cell), 350);
        return;
      }
      case 'landed': {
        const d = applyEventToDisplay(getDisp(), ev);
        b.hideFleet();
        show(d);
        await b.flash(ctx, ev.cell, 'land', null, 400);
        return;
      }
      case 'fleet_at_sea': case 'game_over': case 'endless_chain': {
        await ctx.wait(300);
        return;
      }
      case 'island_removed': {
        await b.flash(ctx, ev.cell, 'fail', '✕', 500);
        show(applyEventToDisplay(getDisp(), ev));
        return;
      }
      case 'turn_passed': return;
      default: {
        const d = applyEventToDisplay(getDisp(), ev);
        show(d);
        await ctx.wait(250);
      }
    }
  }

  // ------------------------------------------------------------------ rendering
  refresh() {
    if (!this.shown) return;
    if (!this.animating) this.input.reset(this.shown, this.myColours(), this.legalShown());
    this.drawBoard();
    this.drawDecision();
    this.drawPlayers();
    this.drawStack();
    this.drawResult();
    this.drawStatus();
  }

  interactive() {
    const v = this.app.room?.stream?.v ?? 0;
    return !this.animating && !this.queue.busy && !this.sending && this.shown === this.target && v >= (this.waitV || 0);
  }

  drawBoard() {
    const ui = this.interactive() ? this.input.highlights() : {};
    ui.recent = this.recent;
    ui.hideFleet = !!this.animating;
    this.board.render(this.shown, ui);
    this.board.svg.dataset.v = String(this.app.room?.stream?.v ?? '');
    this.board.svg.dataset.interactive = this.interactive() && this.input.canAct ? 'yes' : 'no';
  }

  drawStatus() {
    const v = this.shown, t = this.t;
    const phase = v.phase === 'setup' ? t('phase.setup') : v.phase === 'over' ? t('phase.over') : t('phase.play', { turn: v.turn });
    const mine = this.myColours();
    const clock = this.app.room?.state?.settings?.clock;
    clear(this.statusEl).append(
      ...(clock && v.phase !== 'over' ? [el('span', { class: 'tag', title: t('lobby.clock') }, t('status.clock', { s: clock })), ' '] : []),
      el('strong', { text: phase }), ' ',
      mine.length ? el('span', { class: 'you-are' }, mine.map((c) => swatch(c)), ' ', t('you.are', { colours: mine.map((c) => t(`colour.${c}`)).join(', ') }))
        : el('span', { class: 'you-are', 'data-testid': 'spectator' }, t('you.watching')),
      ...(this.app.room?.state?.spectators ? [' · ', el('span', { class: 'muted', 'data-testid': 'spectators', text: t('lobby.spectators', { n: this.app.room.state.spectators }) })] : []));
  }

  drawDecision() {
    const t = this.t;
    const box = clear(this.decisionEl);
    const v = this.shown;
    if (v.phase === 'over') { box.dataset.kind = 'over'; box.append(el('div', { class: 'prompt', text: t('phase.over') })); return; }
    const pend = v.pending;
    box.dataset.kind = this.input.kind || 'none';
    if (!pend) return;
    if (!this.interactive() || this.input.awaitingLegal) {
      box.append(el('div', { class: 'prompt muted', text: '…' }));
      return;
    }
    const pr = this.input.prompt();
    const args = this.promptArgs(pr.args);
    const who = this.seatOfColour(pend.colour);
    const prompt = el('div', { class: 'prompt', 'data-testid': 'prompt' }, swatch(pend.colour), ' ',
      this.input.canAct ? t(pr.key, args) : t('prompt.waiting', { colour: `${t(`colour.${pend.colour}`)}${who?.name ? ` (${who.name})` : ''}`, kind: t(`kind.${pend.kind}`) }));
    box.append(prompt);
    if (!this.input.canAct) return;
    const btns = el('div', { class: 'buttons' });
    for (const bt of this.input.buttons()) {
      const a = { ...(bt.args || {}) };
      if (a.colour) a.colour = t(`colour.${a.colour}`);
      btns.append(el('button', {
        type: 'button', 'data-action': bt.id, class: `${bt.pressed ? 'pressed' : ''} ${bt.danger ? 'danger' : ''} ${bt.colour ? `boat-btn c-${bt.colour}` : ''}`.trim(),
        'aria-pressed': bt.pressed ? 'true' : null, disabled: !bt.enabled, onclick: () => this.onPress(bt.id),
      }, bt.colour ? swatch(bt.colour) : null, t(bt.label, a)));
    }
    box.append(btns);
    // every legal action, as text: for keyboards, screen readers and anyone who prefers a list
    const legal = this.input.legal;
    if (legal.length) {
      const det = el('details', { class: 'all-moves' }, el('summary', { text: t('btn.all_moves', { n: legal.length }) }));
      const list = el('div', { class: 'move-list' });
      legal.slice(0, 60).forEach((a, i) => list.append(el('button', { type: 'button', 'data-legal': i, onclick: () => this.send(a) }, describeAction(a, t))));
      det.append(list);
      box.append(det);
    }
  }

  promptArgs(a) {
    const args = { ...(a || {}) };
    if (args.colour) args.colour = this.t(`colour.${args.colour}`);
    if (args.kind) args.kind = this.t(`kind.${args.kind}`);
    return args;
  }

  /** Keyboard: Escape clears the selection, R / Shift+R turn a tile, Enter places it or confirms a landing. */
  onKey(e) {
    if (!this.interactive() || !this.input.canAct) return;
    if (e.target && /^(INPUT|TEXTAREA|SELECT)$/.test(e.target.tagName)) return;
    const ids = new Set(this.input.buttons().filter((b) => b.enabled).map((b) => b.id));
    let id = null;
    if (e.key === 'Escape') id = 'clear';
    else if (e.key === 'r' || e.key === 'R') id = e.shiftKey ? 'rotate:-1' : 'rotate:1';
    else if (e.key === 'Enter') id = ids.has('place') ? 'place' : 'confirm';
    if (id && (ids.has(id) || id === 'clear')) { e.preventDefault(); this.onPress(id); }
  }

  drawPlayers() {
    const t = this.t, v = this.shown;
    const box = clear(this.playersEl);
    const scores = v.result?.scores;
    for (const p of v.players || []) {
      const seat = this.seatOfColour(p.colour);
      const active = v.active === p.colour || v.pending?.colour === p.colour;
      const flags = [];
      if (seat?.kind === 'bot') flags.push(el('span', { class: 'tag bot', text: t('room.bot') }));
      if (seat?.autopilot) flags.push(el('span', { class: 'tag bot', text: t('room.autopilot') }));
      if (seat && seat.kind === 'human' && !seat.connected) flags.push(el('span', { class: 'tag offline', text: t('room.disconnected') }));
      if (seat && seat.person && seat.person === this.app.session?.person) flags.push(el('span', { class: 'tag you', text: t('room.you') }));
      box.append(el('div', { class: `player ${active ? 'active' : ''}`, 'data-colour': p.colour },
        el('div', { class: 'pname' }, swatch(p.colour), ' ',
          el('span', { class: 'conn-dot', 'data-on': seat?.kind === 'bot' || seat?.connected ? 'yes' : 'no' }),
          el('strong', { text: seat?.name || t(`colour.${p.colour}`) }), ' ', flags),
        el('div', { class: 'pstats' },
          stat(t('panel.score'), scores ? scores[p.colour] : p.score, 'score'),
          stat(t('panel.supply'), p.supply, 'supply'),
          stat(t('panel.on_board'), p.on_board, 'on-board'),
          stat(t('panel.royal_left'), p.royal_left, 'royal-left'),
          stat(t('panel.islands'), p.islands, 'islands'))));
    }
  }

  drawStack() {
    const t = this.t, s = this.shown.stack || {};
    const box = clear(this.stackEl);
    box.append(el('div', { class: 'stack-kinds' },
      el('span', { class: 'chip island', 'data-testid': 'stack-islands', text: t('stack.islands', { n: s.islands ?? '?' }) }),
      el('span', { class: 'chip ocean', 'data-testid': 'stack-oceans', text: t('stack.oceans', { n: s.oceans ?? '?' }) })));
    const row = (title, map, label) => el('div', { class: 'stack-row' }, el('div', { class: 'muted', text: title }),
      el('div', { class: 'chips' }, Object.entries(map || {}).sort().map(([k, n]) => el('span', { class: `chip ${n ? '' : 'zero'}` }, el('b', { text: label(k) }), ` ×${n}`))));
    box.append(row(t('stack.values'), s.island_values, (k) => k));
    box.append(row(t('stack.dangers'), s.ocean_dangers, (k) => (k === '0' ? t('stack.no_number') : k)));
    if (this.shown.in_hand) box.append(el('div', { class: 'in-hand', 'data-testid': 'in-hand', text: t('stack.in_hand', { tile: this.shown.in_hand }) }));
  }

  drawResult() {
    const t = this.t, r = this.shown.result;
    const box = this.resultEl;
    if (!r) { box.hidden = true; return; }
    box.hidden = false;
    clear(box);
    const name = (c) => this.seatOfColour(c)?.name || t(`colour.${c}`);
    box.append(el('h3', { text: t('result.title') }));
    const winners = r.winners || [];
    box.append(el('div', { class: 'winner', 'data-testid': 'winner', text: t(winners.length > 1 ? 'result.winners' : 'result.winner', { names: winners.map((c) => `${name(c)} (${t(`colour.${c}`)})`).join(', ') }) }));
    box.append(el('div', { class: 'decided', 'data-testid': 'decided-by', text: t(`result.decided_by.${r.decided_by}`) }));
    const tbl = el('table', { class: 'scores' }, el('thead', {}, el('tr', {},
      ['result.rank', 'result.player', 'result.score', 'result.islands', 'result.boats'].map((k) => el('th', { text: t(k) })))));
    const body = el('tbody');
    (r.ranking || []).forEach((group, i) => {
      for (const c of group) {
        body.append(el('tr', { 'data-colour': c, class: winners.includes(c) ? 'win' : '' },
          el('td', { text: String(i + 1) }), el('td', {}, swatch(c), ' ', name(c)),
          el('td', { text: String(r.scores?.[c] ?? '') }), el('td', { text: String(r.islands?.[c] ?? '') }), el('td', { text: String(r.boats?.[c] ?? '') })));
      }
    });
    tbl.append(body);
    box.append(tbl);
    if (r.teams) {
      box.append(el('div', { class: 'teams' }, el('div', { class: 'muted', text: t('result.teams') }),
        Object.entries(r.teams).map(([k, n]) => el('div', { text: `${k.split('+').map((c) => t(`colour.${c}`)).join(' + ')}: ${n}` }))));
    }
  }

  addLog({ text, colour, type, ev }) {
    text = text ? text.charAt(0).toUpperCase() + text.slice(1) : text;
    this.log.push({ text, colour, type, ev });
    this._saveLogSoon();
    const li = el('li', { class: type ? `ev-${type}` : '' }, colour ? swatch(colour) : null, colour ? ' ' : null, text);
    this.logEl.append(li);
    while (this.logEl.children.length > 400) this.logEl.removeChild(this.logEl.firstChild);
    this.logEl.scrollTop = this.logEl.scrollHeight;
  }

  flashStatus(text) {
    this.toastEl.textContent = text;
    this.toastEl.classList.add('show');
    clearTimeout(this._toastTimer);
    this._toastTimer = setTimeout(() => this.toastEl.classList.remove('show'), 2200);
  }

  // ------------------------------------------------------------------ input
  onHit(hit) {
    if (!this.interactive()) return;
    if (hit.hit === 'none') {
      if (this.input.canAct) {
        const pr = this.input.prompt();
        this.flashStatus(`${this.t('err.not_here')} ${this.t(pr.key, this.promptArgs(pr.args))}`);
      } else if (this.shown?.pending) this.flashStatus(this.t('err.not_your_turn'));
      return;
    }
    const r = this.input.click(hit);
    this.handleResult(r);
  }

  onPress(id) {
    if (!this.interactive()) return;
    this.handleResult(this.input.press(id));
  }

  handleResult(r) {
    if (r.send) { this.send(r.send); return; }
    if (r.error) this.flashStatus(this.t(r.error));
    this.drawBoard();
    this.drawDecision();
  }

  async send(action) {
    if (this.sending) return;
    this.sending = true;
    this.drawBoard(); this.drawDecision();
    const res = await this.app.act(action);
    this.sending = false;
    if (res.ok && typeof res.v === 'number') this.waitV = res.v;
    if (!res.ok) {
      const code = res.error?.code;
      this.flashStatus(code === 'stale_version' ? this.t('err.stale') : this.t('err.server', { message: res.error?.message || code }));
      this.input.reset(this.shown, this.myColours(), this.legalShown());
    }
    this.drawBoard(); this.drawDecision();
  }

  /** The log survives a reload or a closed tab: kept in localStorage for the last room only. */
  _saveLogSoon() {
    if (this._saveTimer) return;
    this._saveTimer = setTimeout(() => {
      this._saveTimer = null;
      try {
        localStorage.setItem('tongiaki.log', JSON.stringify({ room: this.app.room?.id, items: this.log.slice(-300).map(({ ev, text, colour, type }) => ({ ev, text, colour, type })) }));
      } catch { /* full or private mode */ }
    }, 300);
  }

  restoreLog(roomId) {
    try {
      const saved = JSON.parse(localStorage.getItem('tongiaki.log') || 'null');
      if (saved && saved.room === roomId && Array.isArray(saved.items)) this.adoptLog(saved.items);
    } catch { /* ignore */ }
  }

  /** Copy the log of another table (after a language switch), re-described in this language. */
  adoptLog(items) {
    for (const it of items) this.addLog(it.ev ? { ...it, text: describeEvent(it.ev, this.t) || it.text } : it);
  }

  destroy() { this.queue.clear(); this.board.clearOverlay(); document.removeEventListener('keydown', this._keys); }
}

function stat(label, value, key) {
  return el('span', { class: 'stat', 'data-stat': key, title: label }, el('span', { class: 'muted', text: label }), ' ', el('b', { text: String(value ?? '–') }));
}

export { neighbour };
