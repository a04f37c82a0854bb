// Tongiaki Online — the browser client. Entry point: header, routing (#/, #/room/<id>, #/code/<CODE>),
// session, lobby and room state. The server is the authority; this page renders views and sends intents.
import { Net, storeName } from './net.js';
import { translator, loadLanguage, pickLanguage, LANGS, LANG_NAMES, RTL, refusal } from './i18n.js';
import { touchWords } from './touch.js';
import { GameStream } from './patch.js';
import { el, clear } from './ui/dom.js';
import { renderLobby } from './ui/lobby.js';
import { renderWaiting } from './ui/room.js';
import { Table } from './ui/table.js';
import { ExpeditionsTable } from './expeditions/table.js';
import { TableState } from './ui/tablestate.js';
import { GameLog, backfillLog } from './ui/gamelog.js';
import { Chat } from './ui/chat.js';
import { Replay } from './ui/replay.js';
import { EndScreen } from './ui/endscreen.js';
import { Lesson, renderLessons, EX_LESSON_IDS } from './ui/tutorial.js';
import { ExLesson } from './expeditions/lesson.js';
import { renderRules } from './ui/rules.js';

const QUIET_MS = 10000; // after this long without a game message, ask whether one was missed (cheap if none was)

const LANG_KEY = 'tongiaki.lang';

class App {
  constructor(root) {
    this.root = root;
    let lang = null;
    try { lang = new URLSearchParams(location.search).get('lang') || localStorage.getItem(LANG_KEY); } catch { /* ignore */ }
    this.lang = LANGS.includes(lang) ? lang : pickLanguage(navigator.languages || [navigator.language]);
    this._langAsked = 0;
    this.net = new Net();
    this.session = null;
    this.lobbyRooms = new Map();
    this.lobbyHeard = new Set();   // for each `lobby_watch` on its way: the `lobby` events heard meanwhile
    this.room = null;       // {id, state, stream, chat, table, tableState, log}
    this.screen = null;
  }

  /** Show the page in `lang`, once its strings are loaded (the last language asked for wins). */
  async setLang(lang, rerender = true) {
    const asked = ++this._langAsked;
    try {
      await loadLanguage(lang);
    } catch {
      if (lang === 'en') throw new Error('the English strings could not be loaded');
      return this.setLang('en', rerender); // the page stays usable, in the fallback language
    }
    if (asked !== this._langAsked) return undefined;
    this.applyLang(lang, rerender);
    return undefined;
  }

  applyLang(lang, rerender) {
    this.lang = lang;
    this.t = touchWords(translator(lang), lang);
    document.documentElement.lang = lang;
    document.documentElement.dir = RTL.has(lang) ? 'rtl' : 'ltr';
    document.title = this.t('app.title');
    try { localStorage.setItem(LANG_KEY, lang); } catch { /* ignore */ }
    if (rerender) { this.buildShell(); this.rebuildScreen(); }
  }

  async start() {
    await this.setLang(this.lang, false); // the page's language is needed before anything is drawn
    this.buildShell();
    this.net.on('status', () => this.drawConn());
    this.net.on('session', (s) => this.onSession(s));
    this.net.on('lobby', (m) => this.onLobby(m));
    this.net.on('room', (r) => this.onRoom(r));
    this.net.on('game', (g) => this.onGame(g));
    this.net.on('legal', (l) => this.onLegal(l));
    // A broadcast lost in transit (say while a server's Redis link reconnects) leaves no gap to notice
    // until the next message: after a quiet spell in a running game, ask for what was missed.
    this._lastHeard = Date.now();
    setInterval(() => this.watchdog(), QUIET_MS / 2);
    this.net.on('chat', (c) => { if (this.room && c.room === this.room.id) this.room.chat.add(c.line); });
    // the server lost Redis for a while (docs/protocol.md, `resync`): lobby, room and chat events may be
    // lost, so ask again as after a reconnection
    this.net.on('resync', () => this.pickUp());
    window.addEventListener('hashchange', () => this.route());
    // a page opened on a table connects for it at once (Net.follow)
    const opened = location.hash.match(/^#\/?room\/([^/]+)/);
    if (opened) this.net.table = decodeURIComponent(opened[1]);
    this.net.connect();
    this.drawConn();
    window.__tongiaki = this; // for the browser tests and the curious
  }

  buildShell() {
    const t = this.t;
    this.connEl = el('span', { class: 'conn', 'data-testid': 'conn', role: 'status' });
    const langSel = el('select', { 'data-testid': 'lang', 'aria-label': t('nav.language'), onchange: () => this.setLang(langSel.value) },
      LANGS.map((l) => el('option', { value: l, text: LANG_NAMES[l] })));
    langSel.value = this.lang;
    this.whoEl = el('span', { class: 'who', 'data-testid': 'who' });
    const header = el('header', { class: 'top' },
      el('a', { href: '#/', class: 'brand', text: t('app.title') }),
      el('nav', {}, el('a', { href: '#/', 'data-testid': 'nav-lobby', text: t('nav.lobby') })),
      el('span', { class: 'spacer' }), this.whoEl, this.connEl, langSel);
    this.main = el('main', { id: 'screen' });
    this.toastEl = el('div', { class: 'global-toast', role: 'alert', 'data-testid': 'global-toast' });
    clear(this.root).append(header, this.main, this.toastEl);
    // the table fills the window below the header, whatever the header's height (fonts, a wrapped line)
    const headerHeight = () => { if (header.isConnected) document.documentElement.style.setProperty('--header-h', `${header.offsetHeight}px`); };
    this._headerSize?.disconnect();   // a language switch builds the shell again
    this._headerSize = globalThis.ResizeObserver ? new ResizeObserver(headerHeight) : null;
    if (this._headerSize) this._headerSize.observe(header); else headerHeight();
    this.drawConn();
    this.drawWho();
  }

  drawConn() {
    if (!this.connEl) return;
    const s = this.net?.status || 'connecting';
    this.connEl.dataset.state = s;
    this.connEl.textContent = this.t(`conn.${s}`);
    document.body.classList.toggle('offline', s === 'offline');
  }

  drawWho() { if (this.whoEl) this.whoEl.textContent = this.session?.name || ''; }

  toast(text) {
    this.toastEl.textContent = text;
    this.toastEl.classList.add('show');
    clearTimeout(this._toast);
    this._toast = setTimeout(() => this.toastEl.classList.remove('show'), 3500);
  }

  go(path) { location.hash = `#/${path}`; }

  // ------------------------------------------------------------------ session and routing
  async onSession(s) {
    this.session = s;
    this.drawWho();
    this.room?.tableState.set({ me: s.person });
    if (!this.routedOnce) {
      this.routedOnce = true;
      // coming back without a room in the address (a closed tab): return to the seat we hold
      const h = location.hash.replace(/^#\/?/, '');
      if (!h && s.seats && s.seats.length) { this.go(`room/${s.seats[0].room}`); return; }
      this.route();
      return;
    }
    await this.pickUp();   // a reconnection
  }

  /** Pick up where we were: the room we are in (its state, chat and missed game messages), or the lobby. */
  async pickUp() {
    if (this.room) await this.joinRoom(this.room.id, true);
    else if (this.screen === 'lobby') await this.watchLobby();
  }

  route() {
    if (!this.session) return;
    const h = location.hash.replace(/^#\/?/, '');
    const [page, arg] = h.split('/');
    if (this.replay && page !== 'replay') { this.replay.destroy(); this.replay = null; }
    if (page === 'replay' && arg) { if (this.replay?.id !== arg) this.enterReplay(arg); return; }
    if (this.lesson) { this.lesson.destroy(); this.lesson = null; }
    if (page === 'learn' || page === 'rules') { this.enterPage(page, arg); return; }
    if (page === 'room' && arg) { if (!this.room || this.room.id !== arg) this.enterRoom(arg); return; }
    if (page === 'code' && arg) { this.joinCode(arg); return; }
    this.enterLobby();
  }

  rebuildScreen() {
    if (this.screen === 'lobby') this.showLobby();
    else if (this.screen === 'replay' && this.replay) this.enterReplay(this.replay.id);
    else if (this.screen === 'learn' || this.screen === 'rules') this.route();
    else if (this.room) {
      // the table state and the log belong to the room: a new table in the new language shows them
      this.room.table?.destroy();
      this.room.table = null;
      this.room.chat = this.newChat(this.room.chat);
      this.renderRoom();
    }
  }

  /** #/replay/<id>: a finished game played again (ui/replay.js). */
  async enterReplay(id) {
    if (this.room) await this.leaveRoom();
    if (this.screen === 'lobby') this.net.request('lobby_unwatch', {});
    this.replay?.destroy();
    this.screen = 'replay';
    this.replay = new Replay(this, this.main, id);
    await this.replay.load();
  }

  /** #/learn (the lessons), #/learn/<lesson> (ui/tutorial.js) and #/rules (ui/rules.js). */
  async enterPage(page, arg) {
    if (this.room) await this.leaveRoom();
    if (this.screen === 'lobby') this.net.request('lobby_unwatch', {});
    this.screen = page;
    if (page === 'rules') { await renderRules(this, this.main); return; }
    if (!arg) { renderLessons(this, this.main); return; }
    this.lesson = EX_LESSON_IDS.includes(arg) ? new ExLesson(this, this.main, arg) : new Lesson(this, this.main, arg);
    await this.lesson.start();
  }

  // ------------------------------------------------------------------ lobby
  async enterLobby() {
    if (this.room) await this.leaveRoom();
    this.screen = 'lobby';
    this.showLobby();
    await this.watchLobby();
  }

  showLobby() { this.lobbyUi = renderLobby(this, this.main); }

  async watchLobby() {
    // The socket hears `lobby` events from before the listing is read, so one may come before the answer
    // and be newer than the listing (a game started meanwhile): each event heard while the answer was on
    // its way is applied again over it, in order (docs/protocol.md, `lobby_watch`).
    const heard = [];
    this.lobbyHeard.add(heard);
    let res;
    try {
      res = await this.net.request('lobby_watch', {});
    } finally {
      this.lobbyHeard.delete(heard);
    }
    if (!res.ok) { this.toast(refusal(this.t, res.error)); return; }
    this.lobbyRooms = new Map((res.rooms || []).map((r) => [r.id, r]));
    for (const m of heard) this.applyLobby(m);
    if (this.screen === 'lobby') this.lobbyUi?.update();
  }

  onLobby(m) {
    for (const heard of this.lobbyHeard) heard.push(m);
    this.applyLobby(m);
    if (this.screen === 'lobby') this.lobbyUi?.update();
  }

  applyLobby(m) {
    if (m.op === 'upsert' && m.room) this.lobbyRooms.set(m.room.id, m.room);
    else if (m.op === 'remove') this.lobbyRooms.delete(m.room);
  }

  async setName(name) {
    name = name.trim().slice(0, 24);
    if (!name) return;
    const res = await this.net.request('set_name', { name });
    if (!res.ok) { this.toast(refusal(this.t, res.error)); return; }
    storeName(res.name || name);
    if (this.session) this.session.name = res.name || name;
    this.drawWho();
  }

  async createRoom(settings) {
    const res = await this.net.request('room_create', settings);
    if (!res.ok) { this.toast(refusal(this.t, res.error)); return; }
    this.net.request('lobby_unwatch', {});
    this.go(`room/${res.room.id}`);
  }

  async joinCode(code) {
    if (this.room) await this.leaveRoom();
    if (this.screen === 'lobby') this.net.request('lobby_unwatch', {});
    const res = await this.net.request('room_join', { code });
    if (!res.ok) { this.toast(refusal(this.t, res.error)); return; }
    this.setupRoom(res.room.id, res);
    history.replaceState(null, '', `#/room/${res.room.id}`);
  }

  // ------------------------------------------------------------------ rooms
  newChat(old) {
    const c = new Chat(this, this.room.id);
    if (old) for (const line of old.lines) c.add(line);
    return c;
  }

  async enterRoom(id) {
    if (this.room && this.room.id !== id) await this.leaveRoom();
    if (this.screen === 'lobby') this.net.request('lobby_unwatch', {});
    this.screen = 'room';
    this.entering = id;
    clear(this.main).append(el('p', { class: 'muted', text: this.t('misc.loading') }));
    await this.net.follow(id);   // to the replica holding the table, where the proxy routes by room
    if (this.entering !== id) return;   // (gone elsewhere meanwhile)
    await this.joinRoom(id, false);
  }

  /** room_join (with `since` when we already hold a version). */
  async joinRoom(id, rejoin) {
    const payload = { room: id };
    const held = this.room && this.room.id === id ? this.room.stream : null;
    if (rejoin && held && held.v !== null) payload.since = held.v;
    const res = await this.net.request('room_join', payload);
    // the person went elsewhere while it was answered (the lobby, another room): an answer that came
    // late must not take them back
    if (rejoin ? this.room?.id !== id : this.screen !== 'room' || this.entering !== id) return;
    if (!res.ok) {
      this.toast(refusal(this.t, res.error));
      if (!rejoin) { this.room = null; this.go(''); }
      return;
    }
    this.setupRoom(id, res);
  }

  setupRoom(id, res) {
    const fresh = !this.room || this.room.id !== id;
    if (fresh) {
      this.room = { id, state: res.room, stream: new GameStream(), chat: null, table: null,
        tableState: new TableState({ room: res.room, me: this.session?.person ?? null }), log: new GameLog(id).restore() };
      this.room.chat = new Chat(this, id);
      this.screen = 'room';
    } else if (!this.room.state || (res.room.rev ?? 0) >= (this.room.state.rev ?? 0)) {
      this.room.state = res.room;
      this.room.tableState.set({ room: res.room });
    }
    this.clockFromRoom(res.room);
    for (const line of res.chat || []) this.room.chat.add(line);
    this.renderRoom();
    if (res.game) this.applyCatchUp(res.game);
  }

  applyCatchUp(answer) {
    const r = this.room;
    const results = r.stream.catchUp(answer);
    for (const x of results) {
      if (x.status === 'snapshot' || x.status === 'applied') { this.ensureTable(); r.table.show(x); }
    }
    this.streamChanged();
  }

  async leaveRoom() {
    const r = this.room;
    if (!r) return;
    this.room = null;
    r.table?.destroy();
    await this.net.request('room_leave', { room: r.id });
  }

  onRoom(state) {
    const r = this.room;
    if (!r || state.id !== r.id) return;
    if (r.state && (state.rev ?? 0) < (r.state.rev ?? 0)) return;
    const was = r.state?.status;
    r.state = state;
    r.tableState.set({ room: state });
    if (state.rematch) r.invite = state.rematch;
    r.end?.update();
    this.clockFromRoom(state);
    if (was !== state.status || state.status === 'waiting') this.renderRoom();
  }

  watchdog() {
    const r = this.room;
    if (!r || r.stream.v === null || r.state?.status !== 'playing' || Date.now() - this._lastHeard < QUIET_MS) return;
    this._lastHeard = Date.now();
    this.catchUp();
  }

  async onGame(msg) {
    const r = this.room;
    if (!r || msg.room !== r.id) return;
    this._lastHeard = Date.now();
    const res = r.stream.receive(msg);
    if (res.status === 'applied') {
      this.ensureTable();
      r.table.show(res);
      this.clockFromMessage(res.view, res.prev);
      this.streamChanged();
    } else if (res.status === 'gap') {
      await this.catchUp();
    }
  }

  /** The legal actions of a decision of ours (they come apart from the room's `game` messages). */
  onLegal(payload) {
    const r = this.room;
    if (!r || payload.room !== r.id) return;
    r.stream.setLegal(payload);
    this.streamChanged();
  }

  /** The turn clock from a room state: the server's milliseconds left, counted from now on this machine
   *  (so a skewed clock here does not matter). */
  clockFromRoom(state) {
    const ts = this.room?.tableState;
    if (!ts) return;
    const c = state.clock;
    if (c && typeof c.remaining_ms === 'number') {
      // Expeditions: `starts_ms` while the turn's clock waits for its report to be seen (§14)
      if (!ts.deadline || c.v >= ts.deadline.v) ts.set({ deadline: { v: c.v, colour: c.colour, end: performance.now() + c.remaining_ms,
        starts: typeof c.starts_ms === 'number' ? performance.now() + c.starts_ms : null } });
    } else if (ts.deadline && (state.v === ts.deadline.v || state.status !== 'playing')) {
      ts.set({ deadline: null });   // a bot took the seat over, or the game ended
    }
  }

  /** A live game message starts a decision: with a turn clock and a person to decide, it runs from now.
   *  In Expeditions the clock times the turn: it starts afresh only when a new turn begins. */
  clockFromMessage(view, prev) {
    const r = this.room;
    const clock = r.state?.settings?.clock;
    if (view?.mode === 'expeditions') {
      const d = r.tableState.deadline;
      if (view.phase === 'over') r.tableState.set({ deadline: null });
      else if (!d || !prev || prev.turn !== view.turn) {
        // a live game's clock waits for the report (25 s at the latest, §14) until the room says it started
        const wait = prev && clock <= 600 ? 25_000 : 0;
        r.tableState.set({ deadline: { v: r.stream.v, turn: view.turn, end: performance.now() + wait + clock * 1000,
          starts: wait ? performance.now() + wait : null } });
      }
      else r.tableState.set({ deadline: { ...d, v: r.stream.v } });
      return;
    }
    const colour = view?.pending?.colour;
    const seat = colour ? r.tableState.seatOfColour(colour) : null;
    const runs = clock && seat && seat.kind === 'human' && !seat.autopilot;
    r.tableState.set({ deadline: runs ? { v: r.stream.v, colour, end: performance.now() + clock * 1000 } : null });
  }

  /** The game stream moved on or our legal actions came: the table state learns the version and them. */
  streamChanged() {
    const r = this.room;
    if (r) r.tableState.set({ v: r.stream.v, legal: r.stream.legalNow() });
  }

  async catchUp() {
    const r = this.room;
    if (!r || this._catching) return;
    this._catching = true;
    try {
      if (r.stream.v === null) { await this.joinRoom(r.id, true); return; }
      const res = await this.net.request('since', { room: r.id, v: r.stream.v });
      if (res.ok) {
        if (res.snapshot || res.messages) this.applyCatchUp(res);
        for (const line of res.chat || []) r.chat.add(line);
      }
    } finally { this._catching = false; }
  }

  ensureTable() {
    const r = this.room;
    if (r.table) return;
    if (r.state?.status === 'waiting') { r.state = { ...r.state, status: 'playing' }; }
    this.renderRoom();
  }

  renderRoom() {
    const r = this.room;
    if (!r) return;
    const waiting = r.state.status === 'waiting' && r.stream.v === null;
    if (waiting) {
      if (r.table) { r.table.destroy(); r.table = null; }
      const slot = el('div', { class: 'chat-slot' });
      renderWaiting(this, this.main, slot);
      r.chat.mount(slot);
      return;
    }
    if (!r.table) {
      const holder = el('div', { class: 'table-holder' });
      clear(this.main).append(holder);
      const Kind = r.state?.settings?.game === 'expeditions' ? ExpeditionsTable : Table;
      r.table = new Kind(holder, { state: r.tableState, log: r.log, t: this.t, act: (a) => this.act(a),
        history: () => this.net.request('since', { room: r.id, v: 0 }),
        lateLog: (after, upTo) => backfillLog(r.log, r.id, upTo ?? r.stream.v ?? 0, this.t, undefined, after,
          r.state?.code),
        keepDraft: true,
        // Expeditions (docs/protocol.md §14): the report shown lets the next turn's deadline start; an order
        // that is in may be taken back until the turn resolves
        seen: (turn) => this.net.request('report_seen', { room: r.id, turn }).catch(() => null),
        withdraw: () => this.net.request('withdraw', { room: r.id }) });
      r.end = new EndScreen(this, r.table.panels.resultEl, r.table.rewindSlot);
      r.chat.mount(r.table.chatSlot);
      if (r.stream.view) r.table.show({ status: 'snapshot', view: r.stream.view, v: r.stream.v });
    }
  }

  async roomRequest(event, extra) {
    const res = await this.net.request(event, { room: this.room.id, ...extra });
    if (!res.ok) { this.toast(refusal(this.t, res.error)); return res; }
    if (res.room) this.onRoom(res.room);
    return res;
  }

  /** Send a decision; the table state knows it is on its way, and which version answers it. */
  async act(action) {
    const r = this.room;
    const ts = r.tableState;
    if (ts.sending) return { ok: false, error: { code: 'busy' } };
    ts.set({ sending: true });
    let res;
    try {
      res = await this.net.request('act', { room: r.id, v: r.stream.v, action });
      if (!res.ok && res.error?.code === 'stale_version') await this.catchUp();
    } finally {
      ts.set({ sending: false, ...(res?.ok && typeof res.v === 'number' ? { waitV: res.v } : {}) });
    }
    return res;
  }
}

const app = new App(document.getElementById('app'));
app.start();
