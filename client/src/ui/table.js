// The game table: lays out the board, the decision bar, the animation controls and the side panels, and
// wires them to one table state. It renders the server's views and sends intents through `act`; it never
// runs the rules.
import { el, clear } from './dom.js';
import { BoardView } from '../boardview.js';
import { EventPlayer } from './eventplayer.js';
import { DecisionBar } from './decisionbar.js';
import { Panels } from './panels.js';
import { LogPanel } from './gamelog.js';
import { ClockTicker } from './clock.js';
import { TurnSignals, soundOn, setSound } from './signals.js';
import { routeAhead, fleetColours, routeWords } from '../route.js';
import { endMoment } from './endscreen.js';
import { placeWords } from '../describe.js';

const SPEEDS = [['slow', 0.5], ['normal', 1], ['fast', 2.5], ['instant', 0]];

// A change of these means the decision on screen may be another one: its input starts afresh.
const NEW_DECISION = ['shown', 'playing', 'animating', 'legal'];

export class Table {
  /** root: the element to fill; state: the room's TableState; log: its GameLog; t: translator;
   *  act(action) → Promise of the server's answer; lateLog(after, upTo): fills the log from the server,
   *  from the game's start (after null) or after version `after`, up to version `upTo`;
   *  keepDraft: a half-made choice outlives a reload of the page (a live room's table, not a lesson's);
   *  replay: a finished game played again (ui/replay.js): nobody decides, nothing to hear or be told. */
  constructor(root, { state, log, t, act, lateLog, keepDraft = false, replay = false }) {
    this.root = root; this.state = state; this.t = t; this.replay = replay;
    this.toastEl = el('div', { class: 'toast', role: 'status', 'data-testid': 'toast' });
    this.boardWrap = el('div', { class: 'board-wrap' });
    this.board = new BoardView(this.boardWrap, { onHit: (hit, how) => this.hit(hit, how), label: (d) => this.targetName(d),
      covers: () => [this.sideEl, this.decision.node].filter(Boolean) });
    this.board.svg.setAttribute('aria-label', t('a11y.board'));
    this.decision = new DecisionBar({ state, t, act, toast: (s) => this.flashStatus(s), onInput: () => this.draw(), keepDraft });
    this.player = new EventPlayer({ state, board: this.board, log, t, toast: (s) => this.flashStatus(s) });
    this.player.fillLog = lateLog;
    this.panels = new Panels(state, t, { replay });
    this.logPanel = new LogPanel(log, t);
    this.build();
    this.clock = new ClockTicker(this.root, state, { onWarn: () => this.signals?.warn() });
    this._unsub = state.subscribe((changed) => this.update(changed));
    // after the table's own subscriber: it reads the decision input that update() has just reset
    this.signals = new TurnSignals(state, t, () => this.decision.canAct);
    this._keys = (e) => this.decision.key(e);
    document.addEventListener('keydown', this._keys);
    // a pier pointed at or focused previews its route before it is chosen (route.js)
    const svg = this.board.svg;
    // (a finger's pointer events come with its tap: a tap previews through hit() below)
    svg.addEventListener('pointerover', (e) => { if (e.pointerType !== 'touch') this.previewRoute(e.target.closest?.('[data-hit=pier]')); });
    svg.addEventListener('focusin', (e) => {
      const tapped = this.board.lastPointer === 'touch' && performance.now() - (this.board.lastPointerAt || 0) < 1000;
      if (!tapped) this.previewRoute(e.target.closest?.('[data-hit=pier]'));   // a tap focuses too
    });
    svg.addEventListener('pointerleave', (e) => { if (e.pointerType !== 'touch') this.previewRoute(null); });
    if (state.shown) { this.decision.reset(); this.draw(); this.panels.draw(); this.signals.update(); }
  }

  /** The animation queue (speed, skip, busy) — read by the browser tests. */
  get queue() { return this.player.queue; }
  get animating() { return this.state.animating; }

  build() {
    const t = this.t, p = this.panels;
    // the camera follows the action unless turned off (kept)
    let follow = true;
    try { follow = localStorage.getItem('tongiaki.follow') !== '0'; } catch { /* ignore */ }
    this.board.following = follow;
    this.followBtn = el('button', { type: 'button', class: 'icon follow', title: t('board.follow'), 'aria-label': t('board.follow'),
      'aria-pressed': String(follow), 'data-testid': 'follow', onclick: () => {
        this.board.following = !this.board.following;
        this.followBtn.setAttribute('aria-pressed', String(this.board.following));
        try { localStorage.setItem('tongiaki.follow', this.board.following ? '1' : '0'); } catch { /* ignore */ }
      } }, '◎');
    const zoom = el('div', { class: 'zoom-controls' },
      el('button', { type: 'button', class: 'icon', title: '+', onclick: () => this.board.zoomBy(1.25) }, '+'),
      el('button', { type: 'button', class: 'icon', title: '−', onclick: () => this.board.zoomBy(0.8) }, '−'),
      el('button', { type: 'button', class: 'icon', title: '⤢', 'data-testid': 'fit', onclick: () => this.board.fit() }, '⤢'),
      this.followBtn);
    this.boardWrap.appendChild(zoom);
    const speed = this.queue.speed;
    const speedSel = el('select', { 'data-testid': 'speed', 'aria-label': t('anim.speed'), onchange: () => this.player.setSpeed(Number(speedSel.value)) },
      SPEEDS.map(([k, v]) => el('option', { value: v, text: t(`anim.${k}`) })));
    if (!SPEEDS.some(([, v]) => v === speed)) speedSel.append(el('option', { value: speed, text: `×${speed}` }));
    speedSel.value = String(speed);
    const skipBtn = el('button', { type: 'button', 'data-testid': 'skip', onclick: () => this.queue.skip() }, t('anim.skip'));
    const soundBtn = el('button', { type: 'button', 'data-testid': 'sound', 'aria-pressed': String(soundOn()),
      onclick: () => { setSound(!soundOn()); soundBtn.setAttribute('aria-pressed', String(soundOn())); } }, t('turn.sound'));
    // a system notification when the tab is hidden: asked for only when the person presses this
    const canAsk = !this.replay && globalThis.Notification && Notification.permission === 'default';
    const notifyBtn = canAsk ? el('button', { type: 'button', 'data-testid': 'notify',
      onclick: () => { Notification.requestPermission().finally(() => notifyBtn.remove()); } }, t('turn.notify_ask')) : null;
    const animBar = el('div', { class: 'anim-bar' }, el('label', {}, t('anim.speed'), ' ', speedSel), skipBtn, this.replay ? null : soundBtn, notifyBtn);
    this.decision.node.hidden = this.replay;   // nobody is waited for in a replay
    this.chatSlot = el('div', { class: 'chat-slot' });
    this.rewindSlot = el('span', { class: 'rewind-slot' });
    const main = el('section', { class: 'table-main' }, el('div', { class: 'table-top' }, p.statusEl, this.rewindSlot, animBar),
      this.decision.node, this.boardWrap, endMoment(t, p.resultEl), this.toastEl);
    const panels = [['players', p.playersEl], ['stack', p.stackEl], ['log', this.logPanel.node], ['chat', this.chatSlot]];
    // on a phone the board comes first: the panels are one tap away in a sheet over the board's foot
    const side = el('aside', { class: 'side', 'data-open': '' });
    this.sideEl = side;
    const tabs = el('nav', { class: 'side-tabs', 'data-testid': 'side-tabs', 'aria-label': t('panel.panels') },
      panels.map(([k]) => el('button', { type: 'button', 'data-tab': k, 'aria-pressed': 'false', onclick: () => {
        side.dataset.open = side.dataset.open === k ? '' : k;
        for (const b of tabs.children) b.setAttribute('aria-pressed', String(b.dataset.tab === side.dataset.open));
        if (k === 'log') this.logPanel.toEnd();
      } }, t(`panel.${k}`))));
    side.append(...panels.map(([k, node]) => el('section', { class: `panel ${k}-panel`, 'data-panel': k }, el('h3', { text: t(`panel.${k}`) }), node)),
      tabs);
    clear(this.root).appendChild(el('div', { class: 'table' }, main, side));
    this.logPanel.toEnd();   // a reload's log was drawn before the panel was on the page
  }

  /** A result of the game stream: a snapshot to show as is, or a message whose events are played. */
  show(x) {
    if (x.status === 'snapshot' || x.prev === null) this.player.snapshot(x.view, x.v);
    else if (x.status === 'applied') this.player.message(x.prev, x.events, x.view, x.by, x.v);
  }

  update(changed) {
    if (!this.state.shown) return;
    if (NEW_DECISION.some((k) => changed.has(k)) && this._routeKey) { this._routeKey = undefined; this.previewRoute(null); }
    if (!this.state.animating && NEW_DECISION.some((k) => changed.has(k))) this.decision.reset();
    this.draw();
  }

  /** Board and decision bar, as the state and the selection are now. */
  draw() {
    const s = this.state;
    if (!s.shown) return;
    const ui = this.decision.highlights();
    ui.recent = s.recent;
    ui.hideFleet = !!s.animating;
    this.board.render(s.shown, ui);
    this.board.svg.dataset.v = String(s.v ?? '');
    this.board.svg.dataset.interactive = this.decision.canAct ? 'yes' : 'no';
    this.decision.render();
    this.clock.tick();
  }

  /** A board target chosen. A pier tapped with a finger (which cannot point first) shows its route, and
   *  only a second tap on the same pier sails; a mouse, a pen or a key chooses at once (it previewed). */
  hit(hit, how = {}) {
    if (hit.hit === 'pier' && how.pointer === 'touch' && this._routeKey !== `${hit.island}|${hit.beach}|${hit.dir}`) {
      this.previewRoute({ dataset: hit }, true);
      return;
    }
    this.decision.hit(hit, how);
  }

  /** Shows (a pier target) or clears (null) the route a fleet would sail from that pier, on the board and
   *  in words in the decision bar: each danger against the fleet's colours, and where it ends. */
  previewRoute(target, tapped = false) {
    const d = target?.dataset;
    const key = d ? `${d.island}|${d.beach}|${d.dir}` : null;
    if (key === this._routeKey) return;
    this._routeKey = key;
    const tiles = this.state.shown?.tiles || [];
    const island = d && tiles.find((x) => x.tile === d.island);
    if (!island) {
      this.board.showRoute(null);
      if (this.decision.routeNote) { this.decision.routeNote = null; this.decision.render(); }
      return;
    }
    const colours = fleetColours(tiles, d.island, d.beach);
    const route = routeAhead(tiles, island.cell, Number(d.dir), colours);
    this.board.showRoute(island.cell, Number(d.dir), route);
    this.decision.routeNote = `${this.t(`dir.${d.dir}`)}: ${routeWords(route, colours, this.t)}` +
      (tapped ? ` — ${this.t('route.tap_again')}` : '');
    this.decision.render();
  }

  /** A board target's accessible name ("Samoa, beach 2, 3 of 4 moorings: red 1, blue 2"). */
  targetName(d) {
    const t = this.t, v = this.state.shown;
    const island = (v?.tiles || []).find((x) => x.tile === d.island);
    if (d.hit === 'island') return t('a11y.island', { island: d.island, value: island?.value ?? 0 });
    if (d.hit === 'beach' || d.hit === 'pier') {
      const b = island?.beaches?.[Number(d.beach)];
      const counts = {};
      for (const c of b?.boats || []) counts[c] = (counts[c] || 0) + 1;
      const boats = Object.entries(counts).map(([c, n]) => `${t(`colour.${c}`)} ${n}`).join(', ');
      const name = t('a11y.beach', { island: d.island, b: Number(d.beach) + 1, used: (b?.boats || []).length, n: b?.moorings ?? '?' }) + (boats ? `: ${boats}` : '');
      return d.hit === 'pier' ? `${t('a11y.pier', { dir: t(`dir_word.${d.dir}`) })} — ${name}` : name;
    }
    if (d.hit === 'cell') {
      const place = placeWords(v, d.cell.split(',').map(Number), t);
      return place ? t('a11y.cell', { place }) : t('a11y.cell_alone');
    }
    if (d.hit === 'preview') return t('a11y.preview');
    return null;
  }

  flashStatus(text) {
    this.toastEl.textContent = text;
    this.toastEl.classList.add('show');
    clearTimeout(this._toastTimer);
    this._toastTimer = setTimeout(() => this.toastEl.classList.remove('show'), 2200);
  }

  destroy() {
    this._unsub();
    this.signals.destroy();
    this.clock.destroy();
    this.player.destroy();
    this.panels.destroy();
    this.logPanel.destroy();
    document.removeEventListener('keydown', this._keys);
  }
}
