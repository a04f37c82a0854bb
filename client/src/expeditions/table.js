// The Expeditions table: the square map, the players (who has ordered, never what), the turn deadline,
// the order form (only legal orders, with the rule each follows) and the turn reports, stepped through on
// the map. It renders the server's views and sends orders through `act`; it never runs the rules.
import { el, clear, swatch, nameAndColour } from '../ui/dom.js';
import { loadDraft, saveDraft, dropDraft } from '../ui/draft.js';
import { toDom, SVG_NS } from '../vdom.js';
import { ClockTicker, countdown, turnTimeLeft } from '../ui/clock.js';
import { AnimationQueue } from '../queue.js';
import { Panels } from '../ui/panels.js';
import { mapTree, viewBoxOf, signTree } from './board.js';
import { h } from '../vdom.js';
import { OrderDraft, kindsOf, orderWords, explainDraft, SIDES } from './orders.js';
import { eventWords, eventCell, reportOf, islandName } from './words.js';
import { endMoment } from '../ui/endscreen.js';
import { initialSpeed } from '../ui/eventplayer.js';
import { applyPatch } from '../patch.js';
import { apiJson } from '../net.js';

const STEP_MS = 650;

/** The turn a report tells (its revealed orders name it). */
export const turnOf = (events) => events.find((e) => e.type === 'orders')?.turn ?? 0;

/** What the map shows at step `i` of the latest turn's report, over the board as the turn left it: the
 *  step's cell ringed, the tiles discovered later in the turn not yet there, and the sailing fleet (the
 *  boats of the last departure) on the tile it has reached. */
export function stepScene(events, i, view) {
  const e = events[i];
  const scene = { focus: e ? eventCell(e, view) : null, recent: new Set(), hidden: new Set(), fleet: null };
  events.forEach((x, k) => { if (k > i && x.type === 'tile_placed') scene.hidden.add(x.tile); });
  if (e?.type === 'tile_placed') scene.recent.add(e.tile);
  const sailing = ['tile_placed', 'route_sailed', 'bounced', 'fleet_lost', 'fleet_departed'];
  if (e && sailing.includes(e.type) && scene.focus) {
    const departed = events.slice(0, i + 1).reverse().find((x) => x.type === 'fleet_departed');
    if (departed) scene.fleet = { cell: scene.focus, boats: departed.boats, lost: e.type === 'fleet_lost' };
  }
  return scene;
}

export class ExpeditionsTable {
  /** root: the element to fill; state: the room's TableState; t: translator; act(order) → the answer;
   *  history() → a catch-up answer from version 0 (the turn reports of a game joined late);
   *  replay: a finished game played again (ui/replay.js: no order form, no deadline);
   *  speed() → the animation speed (0: a report is shown at once; by default the person's, as the board
   *  game's table plays);
   *  seen(turn): the report of `turn` has been shown (played to its end or skipped): the next turn's
   *  deadline may start (docs/protocol.md §14, `report_seen`). */
  constructor(root, { state, t, act, history, replay = false, speed = initialSpeed, seen = null, withdraw = null, lesson = false }) {
    this.root = root; this.state = state; this.t = t; this.act = act; this.history = history; this.lesson = lesson;
    this.replay = replay; this.speed = speed; this.seen = seen; this.withdraw = withdraw;
    this.seenTurns = new Set();
    this.changing = null;       // the turn whose order that is in the person reopened the form to change
    this.seat = null;           // the colour whose form is shown, for a person holding several seats
    this.view = null;
    this.reports = [];          // [{turn, events}] resolved while this page watched
    this.shownReport = -1;      // index into reports
    this.step = -1;             // the report step on the map (-1: none)
    this.draft = null; this.draftFor = null;
    this.whole = false;
    // the report's steps play on the animation queue (its speed the person's; `busy` and `animating` are
    // read by the browser tests' helpers)
    this.queue = new AnimationQueue({ speed: speed() });
    this.animating = false;
    this._run = null;           // the report playing (a token: a later play or a skip ends it)
    // status line, players and result: the shared panels, drawn with this game's parts
    this.panels = new Panels(state, t, { replay, parts: {
      status: (box) => this.drawStatus(box), players: (box) => this.drawPlayers(box), result: (box) => this.drawResult(box) } });
    this.build();
    this._unsub = state.subscribe((changed) => { if (changed.has('legal') || changed.has('legals') || changed.has('room') || changed.has('v')) this.draw(); });
    // the turn's clock: it times the turn (not a decision), and may wait for the report to be seen
    this.clock = new ClockTicker(this.root, state, { left: (st) => (this.replay ? null : turnTimeLeft(st)),
      onTick: (left, d) => this.clockShown(left, d) });
  }

  build() {
    const t = this.t;
    this.svg = document.createElementNS(SVG_NS, 'svg');
    this.svg.setAttribute('class', 'board-svg ex-map');
    this.svg.setAttribute('data-testid', 'board');
    this.svg.setAttribute('role', 'img');
    this.svg.setAttribute('aria-label', t('ex.mode'));
    this.svg.addEventListener('click', (e) => this.clickMap(e));
    const p = this.panels;
    p.statusEl.setAttribute('role', 'status');
    this.clockEl = countdown();
    this.formEl = el('section', { class: 'ex-orders panel', 'data-testid': 'order-form' });
    this.reportEl = el('section', { class: 'ex-report panel', 'data-testid': 'turn-report' });
    this.chatSlot = el('div', { class: 'chat-slot' });
    const wholeBtn = el('button', { type: 'button', class: 'whole-map', 'data-testid': 'whole-map', 'aria-pressed': 'false',
      onclick: () => { this.whole = !this.whole; wholeBtn.setAttribute('aria-pressed', String(this.whole)); this.drawMap(); } }, t('ex.whole_map'));
    // the report's current sentence over the map (on a phone the list is out of view while it plays)
    this.captionEl = el('div', { class: 'ex-caption', 'data-testid': 'report-caption', 'aria-live': 'polite', hidden: true });
    this.thenEl = el('div', { class: 'ex-then', 'data-testid': 'report-then', hidden: true });
    const boardWrap = el('div', { class: 'board-wrap ex-board' }, this.svg, el('div', { class: 'zoom-controls' }, wholeBtn),
      this.thenEl, this.captionEl);
    // while the turn's clock waits for its report to be seen (docs/protocol.md §14), the time is at the latest
    this.waitsEl = el('span', { class: 'ex-clock-waits muted', 'data-testid': 'clock-waits', hidden: true, text: t('ex.clock_waits') });
    this.clockBox = el('span', { class: 'ex-clock', hidden: true }, t('ex.deadline_left'), ' ', this.clockEl);
    this.rewindSlot = el('span', { class: 'rewind-slot' });
    const top = el('div', { class: 'table-top' }, p.statusEl, this.rewindSlot, this.clockBox, this.waitsEl);
    // the order form heads the side column: the map keeps the whole height (on a phone: right below it)
    const main = el('section', { class: 'table-main' }, top, boardWrap, this.legend(), endMoment(t, p.resultEl));
    const side = el('aside', { class: 'side ex-side' }, this.formEl,
      el('section', { class: 'panel players-panel' }, el('h3', { text: t('panel.players') }), p.playersEl),
      this.reportEl,
      el('section', { class: 'panel chat-panel' }, el('h3', { text: t('panel.chat') }), this.chatSlot));
    clear(this.root).appendChild(el('div', { class: 'table ex-table', 'data-mode': 'expeditions' }, main, side));
  }

  /** The map's legend: the signs drawn as on the map, each with what it means. */
  legend() {
    const t = this.t;
    const sign = (kind, n) => {
      const svg = document.createElementNS(SVG_NS, 'svg');
      svg.setAttribute('viewBox', '0 0 28 28'); svg.setAttribute('class', 'ex-sign ex-map'); svg.setAttribute('aria-hidden', 'true');
      svg.appendChild(toDom(signTree(kind, n)));
      return svg;
    };
    return el('details', { class: 'ex-legend', 'data-testid': 'map-legend', open: !matchMedia?.('(max-width: 820px)').matches },
      el('summary', { text: t('ex.legend.title') }),
      el('ul', {},
        el('li', {}, sign('factor', 1), sign('factor', 3), ' ', t('ex.legend.factor')),
        el('li', {}, sign('boosted', 3), sign('typhoon'), ' ', t('ex.legend.typhoon')),
        el('li', {}, sign('value', 4), ' ', t('ex.legend.value')),
        el('li', {}, t('ex.legend.beach'))));
  }

  /** A result of the game stream: a snapshot, or a message (its turn report is kept and played). */
  show(x) {
    this.view = x.view;
    this.state.set({ shown: x.view, target: x.view });
    const report = x.status === 'applied' ? reportOf(x.events || []) : [];
    if (report.length) {
      this.reports = this.reports.filter((r) => r.turn !== turnOf(report));
      // the map as this turn left it goes with its report: an earlier turn is shown as it was
      this.reports.push({ turn: turnOf(report), events: report, view: x.view });
      this.shownReport = this.reports.length - 1;
      this.play();
    }
    if (x.status === 'snapshot' && !this._askedHistory) this.loadHistory();
    // joined or back between turns: no report plays on this page, so it holds no deadline back
    if (x.status === 'snapshot' && x.view?.turn > 1 && x.view.phase !== 'over') this.markSeen(x.view.turn - 1);
    this.draw();
  }

  /** A replay's version on the map (ui/replay.js): the reports of the turns resolved up to it (before the
   *  first resolves, that turn's told ahead: `replayReports`), the latest stepped through when `animate`. */
  replayAt(view, reports, animate) {
    this._stop();
    this.animating = false;
    this.view = view;
    this.state.set({ shown: view, target: view });
    this.reports = reports;
    this.shownReport = reports.length - 1;
    this.step = -1;
    if (animate) this.play();
    this.draw();
  }

  /** The reports of the turns played before this page joined or was reloaded (someone back after a day,
   *  on any device, sees them all), each with the map its turn left: from the server's replay of the game
   *  so far (docs/protocol.md §12: whole however long the game, and only what was public at each turn),
   *  else from the game's last messages the server holds (a report without its map). */
  async loadHistory() {
    this._askedHistory = true;
    const [res, served] = await Promise.all([this.history?.().catch(() => null), this.pastTurns()]);
    const messages = res?.ok && Array.isArray(res.messages) ? res.messages : [];
    const known = new Set(this.reports.map((r) => r.turn));
    const past = new Map();
    for (const r of served) past.set(r.turn, r);
    for (const ev of messages.map((m) => reportOf(m.events || [])).filter((ev) => ev.length)) {
      if (!past.has(turnOf(ev))) past.set(turnOf(ev), { turn: turnOf(ev), events: ev, view: null });
    }
    for (const turn of known) past.delete(turn);
    if (!past.size) return;
    const shown = this.reports[this.shownReport];
    this.reports = [...past.values(), ...this.reports].sort((a, b) => a.turn - b.turn);
    this.shownReport = shown ? this.reports.indexOf(shown) : this.reports.length - 1;
    this.draw();
  }

  /** Each resolved turn's report and the map as it left it, from the replay of the game so far
   *  (`GET /api/games/<room>/replay`); [] when the server has none to give. */
  async pastTurns() {
    const room = this.state.room?.id;
    // before a turn has resolved there is nothing to replay (the server has no record of the game yet)
    const resolved = this.view?.turn > 1 || this.view?.phase === 'over';
    if (!room || this.replay || this.lesson || !resolved) return [];
    const body = await apiJson(`/api/games/${encodeURIComponent(room)}/replay`);
    const out = [];
    try {
      let view = null;
      for (const f of body?.frames || []) {
        view = applyPatch(view, f.patch);
        const report = reportOf(f.events || []);
        if (report.length) out.push({ turn: turnOf(report), events: report, view });
      }
    } catch { return []; }   // a replay that does not unfold: the reports come without their maps
    return out;
  }

  get me() { return this.state.legal?.colour || null; }

  who(colour) {
    const seat = (this.state.room?.seats || []).find((s) => (s.colours || []).includes(colour));
    return nameAndColour(this.t, colour, seat?.name);
  }

  draw() {
    if (!this.view) return;
    this.drawMap(); this.panels.draw(); this.clock.tick(); this.drawForm(); this.drawReport();
    this.svg.dataset.v = String(this.state.v ?? '');
    this.svg.dataset.interactive = this.canOrder ? 'yes' : 'no';
  }

  /** Our seats' forms of this version by colour when we hold several seats (a hot seat), else null. */
  get seats() {
    const s = this.state.legals;
    return s && Object.keys(s).length > 1 ? s : null;
  }

  /** The order form shown: the chosen seat's when we hold several (`seat`), else our one seat's. */
  get legal() {
    const l = (this.seats && this.seat && this.seats[this.seat]) || this.state.legal;
    return l && !Array.isArray(l) && l.turn === this.view?.turn ? l : null;
  }

  get canOrder() {
    const l = this.legal;
    return !!(l?.options) && (!l.order || this.changing === l.turn) && this.view?.phase !== 'over' && !this.state.sending;
  }

  /** Whether an earlier turn's report is on the map (the map then as that turn left it). */
  get earlier() {
    const rep = this.reports[this.shownReport];
    return !!rep && this.shownReport < this.reports.length - 1;
  }

  /** The map a report is told on: the one its turn left (kept with it), else today's. */
  mapOf(rep) { return (rep && rep.view) || this.view; }

  drawMap() {
    const d = this.draft, t = this.t;
    const rep = this.reports[this.shownReport];
    // a report stepped through on the map its turn left: an earlier turn's, or a replay's told ahead
    const then = (this.earlier || (rep?.ahead && this.step >= 0)) && rep.view ? rep.view : this.view;
    const live = then === this.view;
    const ui = { whole: this.whole, selected: d && this.canOrder && live ? d.island : null,
      options: new Set(this.canOrder && live ? this.optionIslands() : []), recent: new Set() };
    if (rep && this.step >= 0) {
      if (rep.view || !this.earlier) Object.assign(ui, stepScene(rep.events, this.step, then));
      else ui.focus = eventCell(rep.events[this.step] || {}, then);   // a report read back without its map
    }
    const node = toDom(mapTree(then, ui));
    clear(this.svg).appendChild(node);
    this.svg.setAttribute('viewBox', viewBoxOf(then, this.whole));
    this.svg.dataset.turnShown = live ? 'now' : String(rep.turn);
    const unkept = this.earlier && !rep.view;   // a report read back on another page: its map was not kept
    this.thenEl.hidden = live && !unkept;
    if (unkept) clear(this.thenEl).append(el('span', { text: t('ex.map_not_kept', { turn: rep.turn }) }));
    else if (!live) {
      clear(this.thenEl).append(el('span', { text: t('ex.as_it_was', { turn: rep.turn }) }), ' ',
        el('button', { type: 'button', 'data-testid': 'report-today', onclick: () => this.showReport(this.reports.length - 1) },
          t(this.replay ? 'ex.replay_now' : 'ex.today')));   // a replay's "now" is the version it is at
    }
    const e = rep && this.step >= 0 ? rep.events[this.step] : null;
    this.captionEl.hidden = !e || !this.animating;
    if (e) this.captionEl.textContent = eventWords(e, t, (c) => this.who(c), this.mapOf(rep));
  }

  optionIslands() {
    return this.legal?.options && this.draft ? this.draft.islands : [];
  }

  /** The order being made belongs to this turn and these colours (a reload keeps it: ui/draft.js). */
  draftStamp() { return `${this.legal?.turn}:${this.legal?.colour}:${this.state.myColours().join(',')}`; }

  saveDraft() { if (this.draft && this.legal?.options) saveDraft(this.state.room?.id, this.draftStamp(), this.draft.snapshot()); }

  clickMap(e) {
    const g = e.target.closest?.('[data-island]');
    if (!g || !this.canOrder || !this.draft) return;
    if (this.optionIslands().includes(g.dataset.island)) { this.draft.setIsland(g.dataset.island); this.draw(); }
  }

  /** The status line (a part of the shared panels): the turn, and who has not ordered yet. */
  drawStatus(box) {
    const t = this.t, v = this.view;
    if (!v) return;
    const missing = (v.players || []).filter((p) => !p.submitted).map((p) => this.who(p.colour));
    const live = !this.replay && !this.lesson;
    // a spectator is told so on the status line, as at a Tongiaki table (there is no order of theirs to show)
    clear(box).append(v.phase === 'over' ? t('ex.over') : t('ex.turn', { turn: v.turn }),
      ...(live && !this.state.myColours().length ? [' · ', el('span', { class: 'you-are', 'data-testid': 'spectator' }, t('you.watching'))] : []),
      live && v.phase !== 'over' ? ' · ' + (missing.length ? t('ex.waiting', { names: missing.join(', ') }) : t('ex.all_in')) : '');
  }

  /** Beside the countdown (ClockTicker ticks it): its box shown while the turn's clock runs, and the note that
   *  it waits for the report to be seen. */
  clockShown(left, d) {
    const shown = left !== null, waits = shown && d.starts > performance.now(), mark = waits ? 'yes' : 'no';
    if (this.clockBox.hidden === shown) this.clockBox.hidden = !shown;
    if (shown && this.clockEl.dataset.waits !== mark) this.clockEl.dataset.waits = mark;
    if (this.waitsEl.hidden === waits) this.waitsEl.hidden = !waits;
  }

  /** The players (a part of the shared panels): who has ordered, never what, and each one's numbers. */
  drawPlayers(box) {
    const t = this.t;
    if (!this.view) return;
    clear(box).append(el('ul', { class: 'ex-players' }, (this.view.players || []).map((p) => el('li', {
      class: `ex-player${p.colour === this.me ? ' me' : ''}`, 'data-colour': p.colour, 'data-submitted': p.submitted ? 'yes' : 'no' },
    swatch(p.colour), ' ', el('strong', { text: this.who(p.colour) }), ' ',
    el('span', { class: `ex-ordered ${p.submitted ? 'in' : 'out'}`, 'data-testid': `ordered-${p.colour}` },
      this.view.phase === 'over' || this.replay || this.lesson ? '' : p.submitted ? `✓ ${t('ex.submitted')}` : t('ex.thinking')),
    el('div', { class: 'ex-stats' },
      `${t('ex.score')} ${p.score} · ${t('ex.islands_n', { n: p.islands })} · ${t('ex.supply_short')} ${p.supply} · ${t('ex.on_map')} ${p.on_map}`,
      p.royal ? ` · ${t('ex.royal_of', { island: p.royal })}` : '')))));
  }

  drawForm() {
    const t = this.t, box = this.formEl, legal = this.legal;
    clear(box);
    // a tap on its title folds or unfolds the phone's sheet
    box.append(el('h3', { text: t('ex.orders'), 'data-testid': 'order-sheet-toggle', onclick: () => {
      if (box.dataset.folded) delete box.dataset.folded; else box.dataset.folded = 'yes';
    } }));
    if (this.view.phase === 'over' || this.replay) { box.hidden = true; return; }
    box.hidden = false;
    const seats = this.seats;
    if (seats && legal) {   // one person, several seats: each seat's order is made, changed and withdrawn on its own
      box.append(el('div', { class: 'ex-kinds ex-seats', role: 'radiogroup', 'aria-label': t('ex.seat_pick') },
        el('span', { class: 'muted', text: t('ex.seat_pick') }), ' ',
        Object.keys(seats).map((c) => el('button', { type: 'button', role: 'radio', 'data-testid': `order-seat-${c}`,
          'aria-checked': String(c === legal.colour), class: `kind${c === legal.colour ? ' on' : ''}`,
          onclick: () => { this.seat = c; this.changing = null; this.draft = null; this.draw(); } },
          swatch(c), ' ', this.who(c), seats[c].order ? ' ✓' : ''))));
    }
    if (!legal) {
      // a lesson's one turn is played; a spectator has no order (the status line says they watch)
      box.hidden = this.lesson || !this.state.myColours().length;
      box.append(el('p', { class: 'muted', text: '…' }));
      return;
    }
    if (legal.order && this.changing !== legal.turn) {
      dropDraft();
      box.append(el('p', { class: 'ex-sent', 'data-testid': 'order-sent', text: t('ex.sent', { order: orderWords(legal.order, t, this.view) }) }));
      // E3: an order may be replaced or taken back until the turn is resolved (a few times a turn)
      if (this.withdraw && legal.options) {
        const left = legal.changes_left ?? 1;
        box.append(el('p', { class: 'muted ex-changes', 'data-testid': 'changes-left', text: t('ex.changes_left', { n: left }) }),
          el('div', { class: 'buttons' },
            el('button', { type: 'button', 'data-testid': 'order-change', disabled: left <= 0, onclick: () => { this.changing = legal.turn; this.draw(); } }, t('ex.change')),
            el('button', { type: 'button', 'data-testid': 'order-withdraw', disabled: left <= 0 || this.state.sending, onclick: () => this.takeBack() }, t('ex.withdraw'))));
      }
      return;
    }
    const options = legal.options;
    if (!options) return;
    const key = `${this.state.v}:${legal.turn}`;
    if (!this.draft || this.draftFor !== `${legal.turn}:${legal.colour}`) {
      this.draft = new OrderDraft(options).restore(loadDraft(this.state.room?.id, this.draftStamp()));
      this.draftFor = `${legal.turn}:${legal.colour}`;
    }
    this.saveDraft();
    this._key = key;
    const d = this.draft, o = options;
    const kinds = el('div', { class: 'ex-kinds', role: 'radiogroup' }, kindsOf(o).map((k) => el('button', {
      type: 'button', class: `kind${d.kind === k ? ' on' : ''}`, role: 'radio', 'aria-checked': String(d.kind === k), 'data-kind': k,
      onclick: () => { d.choose(k); this.draw(); } }, t(`ex.kind.${k}`))));
    box.append(kinds);
    const islands = this.optionIslands();
    if (islands.length) {
      const sel = el('select', { 'data-testid': 'order-island', 'aria-label': t('ex.island'), onchange: () => { d.setIsland(sel.value); this.draw(); } },
        islands.map((i) => el('option', { value: i, text: islandName(i, this.view) })));
      sel.value = d.island;
      box.append(el('label', { class: 'field' }, t('ex.island'), ' ', sel));
    }
    if (d.kind === 'take_back') {
      const back = el('select', { 'data-testid': 'order-back', onchange: () => { d.back = Number(back.value); this.saveDraft(); } },
        o.take_back.map((b, i) => el('option', { value: i, text: t(`ex.beach.${b.beach}`, { island: islandName(b.island, this.view) }) })));
      back.value = String(d.back);
      box.append(el('label', { class: 'field' }, t('ex.from'), ' ', back));
    }
    if (d.kind === 'place') {
      const beach = el('select', { 'data-testid': 'order-beach', onchange: () => { d.beach = beach.value; this.saveDraft(); } },
        SIDES.map((s) => el('option', { value: s, text: t(`ex.side.${s}`) })));
      beach.value = d.beach;
      box.append(el('label', { class: 'field' }, t('ex.beach'), ' ', beach));
    }
    if (d.kind === 'expand' || d.kind === 'take_back') {
      const act = d.activation;
      box.append(el('div', { class: 'ex-steppers' }, SIDES.map((s) => el('div', { class: 'stepper', 'data-side': s },
        el('span', { class: 'side-name', text: t(`ex.side.${s}`) }),
        el('button', { type: 'button', 'data-testid': `minus-${s}`, 'aria-label': `− ${t(`ex.side.${s}`)}`, disabled: !d.canRemove(s), onclick: () => { d.remove(s); this.draw(); } }, '−'),
        el('output', { text: String(d.moves[s] || 0) }),
        el('button', { type: 'button', 'data-testid': `plus-${s}`, 'aria-label': `+ ${t(`ex.side.${s}`)}`, disabled: !d.canAdd(s), onclick: () => { d.add(s); this.draw(); } }, '+'),
        el('small', { class: 'muted', text: act?.own?.[s] ? `(${act.own[s]})` : '' })))));
      box.append(el('p', { class: 'ex-left', 'data-testid': 'moves-left' },
        t('ex.moves_left', { left: d.left, n: d.allowed }), ' · ', t('ex.supply', { n: o.supply })));
    }
    // what the order means, in plain words (E4), and what follows from it (E6-E7)
    box.append(el('div', { class: 'ex-rule', 'data-testid': 'order-rule' },
      explainDraft(d, t, this.view, this.me).map((line) => el('p', { text: line }))));
    box.append(el('div', { class: 'ex-send-row' },
      el('button', { type: 'button', class: 'primary', 'data-testid': 'order-send', disabled: !d.ready || this.state.sending,
        onclick: () => this.send() }, t('ex.send')),
      this.changing === legal.turn ? el('button', { type: 'button', 'data-testid': 'order-keep', onclick: () => { this.changing = null; this.draw(); } }, t('ex.close_form')) : null));
    box.append(el('p', { class: 'ex-secret muted', text: t('ex.explain.secret') }));
  }

  async send() {
    const d = this.draft;
    if (!d?.ready) return;
    const order = d.toWire(), turn = this.legal?.turn, colour = this.seats ? this.legal?.colour : undefined;
    let res = await this.act(order, colour);
    // another seat's order moved the version on meanwhile: the turn is the same, so send it again once
    if (!res?.ok && res?.error?.code === 'stale_version' && this.legal?.turn === turn) res = await this.act(order, colour);
    if (res?.ok) this.changing = null;
    this.draw();
  }

  /** Take the order back (E3: until the turn is resolved); the form opens again. */
  async takeBack() {
    const res = await this.withdraw?.(this.seats ? this.legal?.colour : undefined);
    if (res?.ok) { this.changing = null; this.draft = null; }
    this.draw();
  }

  drawReport() {
    const t = this.t, box = this.reportEl;
    clear(box).append(el('h3', { text: t('ex.report') }));
    const rep = this.reports[this.shownReport];
    if (!rep) { box.append(el('p', { class: 'muted', text: t('ex.report_none') })); return; }
    const nav = el('div', { class: 'ex-report-nav' },
      el('button', { type: 'button', 'data-testid': 'report-prev', disabled: this.shownReport <= 0, onclick: () => this.showReport(this.shownReport - 1) }, '‹ ', t('ex.prev')),
      el('strong', { 'data-testid': 'report-turn', text: t('ex.report_turn', { turn: rep.turn }) }),
      el('button', { type: 'button', 'data-testid': 'report-next', disabled: this.shownReport >= this.reports.length - 1, onclick: () => this.showReport(this.shownReport + 1) }, t('ex.next'), ' ›'),
      this.animating ? el('button', { type: 'button', class: 'primary', 'data-testid': 'report-skip', onclick: () => this.skip() }, t('ex.skip'), ' »')
        : el('button', { type: 'button', 'data-testid': 'report-play', onclick: () => this.play() }, '▶ ', t('ex.play')),
      el('button', { type: 'button', 'data-testid': 'report-step', onclick: () => { this.step = Math.min(rep.events.length - 1, this.step + 1); this.draw(); } }, t('ex.step')));
    const who = (c) => this.who(c);
    const list = el('ol', { class: 'ex-steps', 'data-testid': 'report-steps' }, rep.events.map((e, i) => el('li', {
      class: `ev ev-${e.type}${i === this.step ? ' current' : ''}`, 'data-type': e.type,
      onclick: () => { this.step = i; this.draw(); } }, eventWords(e, t, who, this.mapOf(rep)))));
    box.append(nav, list);
    // the current step in view inside the list only (scrollIntoView would scroll the whole column too)
    const cur = list.querySelector('.current');
    if (cur) requestAnimationFrame(() => { list.scrollTop = cur.offsetTop - list.offsetTop - list.clientHeight / 2; });
  }

  /** Report `i` on the map its turn left; on a phone, where the report's buttons sit below the map, the map
   *  is brought into view (the order sheet steps aside while it plays, `play`). */
  showReport(i) {
    this.shownReport = Math.max(0, Math.min(this.reports.length - 1, i));
    this.step = -1;
    this.draw();
    const top = this.svg.getBoundingClientRect().top;
    if (top < 0 || top > innerHeight / 2) this.svg.closest('.board-wrap')?.scrollIntoView({ block: 'start' });
  }

  /** Steps through the shown report on the map, one event at a time (at once with reduced motion). */
  async play() {
    this._stop();
    const rep = this.reports[this.shownReport];
    if (!rep) return;
    const reduced = globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    const speed = this.speed();
    if (reduced || !speed) { this.step = rep.events.length - 1; this.draw(); this.markSeen(rep.turn); return; }
    this.step = 0; this.animating = true;
    this.formEl.dataset.folded = 'yes';   // a phone's sheet steps aside: the map plays
    const run = this._run = {};
    // a report stopped a moment ago ends first (a skip on the queue would cut this one short too)
    await this.queue.idle();
    if (this._run !== run) return;
    this.queue.setSpeed(speed);
    this.queue.push(async (ctx) => {
      for (;;) {
        await ctx.wait(STEP_MS);
        if (this._run !== run) return;
        if (this.step >= rep.events.length - 1) { this.skip(); return; }
        this.step++;
        this.drawMap(); this.drawReport();
      }
    });
  }

  /** The report playing, if any, stops where it is. */
  _stop() {
    this._run = null;
    this.queue.clear();
  }

  /** The report at its end at once (the Skip button, or its last step played): it counts as seen. */
  skip() {
    this._stop();
    const rep = this.reports[this.shownReport];
    this.animating = false;
    if (rep) this.step = rep.events.length - 1;
    delete this.formEl.dataset.folded;
    this.draw();
    if (rep) this.markSeen(rep.turn);
  }

  /** Tells the server once per turn that this page has shown the turn's report (live games only). */
  markSeen(turn) {
    if (this.replay || !this.seen || this.seenTurns.has(turn) || !this.state.myColours().length) return;
    this.seenTurns.add(turn);
    this.seen(turn);
  }

  /** The result (a part of the shared panels): the ranking with the scores, once the game is over. */
  drawResult(box) {
    const r = this.view?.result, t = this.t;
    if (!r || this.view.phase !== 'over') { box.hidden = true; return; }
    box.hidden = false;
    clear(box).append(el('h3', { text: t('ex.over') }),
      el('ol', {}, (r.ranking || []).map((group) => el('li', {}, group.map((c) => `${this.who(c)}: ${r.scores[c]}`).join(', ')))));
  }

  destroy() {
    this._unsub(); this.clock.destroy(); this._stop(); this.panels.destroy();
  }
}
