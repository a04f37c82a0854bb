// Tongiaki Online — the browser client. Entry point and composition root: the language, the frame, routing
// (#/, #/room/<id>, #/code/<CODE>, #/replay/<id>, #/learn, #/rules), the LobbySession and each room's
// RoomSession fed by the network and wired to their screens. The server is the authority; this page renders
// views and sends intents.
import { Net, storeName } from './net.js';
import { translator, loadLanguage, pickLanguage, LANGS, RTL, refusal } from './i18n.js';
import { touchWords } from './touch.js';
import { RoomSession } from './roomsession.js';
import { LobbySession } from './lobbysession.js';
import { el, clear } from './ui/dom.js';
import { Shell } from './ui/shell.js';
import { renderLobby } from './ui/lobby.js';
import { renderRoomScreen, roomChat } from './ui/roomscreen.js';
import { Replay } from './ui/replay.js';
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
    this.lobby = new LobbySession(this.net, { changed: () => { if (this.screen === 'lobby') this.lobbyUi?.update(); },
      refused: (e) => this.toast(refusal(this.t, e)) });
    this.room = null;       // the RoomSession of the room on screen
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
    this.net.on('lobby', (m) => this.lobby.onLobby(m));
    // a room's messages go to its session, while it is the room on screen
    const inRoom = (id) => (this.room && id === this.room.id ? this.room : null);
    this.net.on('room', (r) => inRoom(r.id)?.onRoom(r));
    this.net.on('game', (g) => { const r = inRoom(g.room); if (r) { this._lastHeard = Date.now(); r.onGame(g); } });
    this.net.on('legal', (l) => inRoom(l.room)?.onLegal(l));
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

  /** The header, the screen and the toast, drawn again in the page's language. */
  buildShell() {
    this.shell?.destroy();
    this.shell = new Shell(this.root, { t: this.t, lang: this.lang, onLang: (lang) => this.setLang(lang) });
    this.main = this.shell.main;
    this.drawConn();
    this.drawWho();
  }

  drawConn() { this.shell?.conn(this.net?.status || 'connecting'); }

  drawWho() { this.shell?.who(this.session?.name || ''); }

  toast(text) { this.shell.toast(text); }

  go(path) { location.hash = `#/${path}`; }

  /** What a page is given (the lobby, lessons, rules, a replay): the strings and language as the page is drawn,
   *  requests, a brief message, navigation, the session, and whether the lobby is the screen. */
  get page() {
    return { t: this.t, lang: this.lang, request: (event, data) => this.net.request(event, data),
      toast: (text) => this.toast(text), go: (path) => this.go(path), session: () => this.session,
      inLobby: () => this.screen === 'lobby' };
  }

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
    else if (this.screen === 'lobby') await this.lobby.watch();
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
      this.room.chat = roomChat(this.room, this.page, this.room.chat);
      this.renderRoom();
    }
  }

  /** #/replay/<id>: a finished game played again (ui/replay.js). */
  async enterReplay(id) {
    if (this.room) await this.leaveRoom();
    this.lobby.unwatch();
    this.replay?.destroy();
    this.screen = 'replay';
    this.replay = new Replay(this.page, this.main, id);
    await this.replay.load();
  }

  /** #/learn (the lessons), #/learn/<lesson> (ui/tutorial.js) and #/rules (ui/rules.js). */
  async enterPage(page, arg) {
    if (this.room) await this.leaveRoom();
    this.lobby.unwatch();
    this.screen = page;
    if (page === 'rules') { await renderRules(this.page, this.main); return; }
    if (!arg) { renderLessons(this.page, this.main); return; }
    this.lesson = EX_LESSON_IDS.includes(arg) ? new ExLesson(this.page, this.main, arg) : new Lesson(this.page, this.main, arg);
    await this.lesson.start();
  }

  // ------------------------------------------------------------------ lobby
  async enterLobby() {
    if (this.room) await this.leaveRoom();
    this.screen = 'lobby';
    this.showLobby();
    await this.lobby.watch();
  }

  showLobby() {
    this.lobbyUi?.reach.destroy();
    this.lobbyUi = renderLobby({ ...this.page, rooms: () => this.lobby.rooms, setName: (n) => this.setName(n),
      createRoom: (s) => this.createRoom(s), joinCode: (c) => this.joinCode(c) }, this.main);
  }

  async setName(name) {
    const taken = await this.lobby.setName(name);
    if (taken === null) return;
    storeName(taken);
    if (this.session) this.session.name = taken;
    this.drawWho();
  }

  async createRoom(settings) {
    const room = await this.lobby.createRoom(settings);
    if (room !== null) this.go(`room/${room}`);
  }

  async joinCode(code) {
    if (this.room) await this.leaveRoom();
    const was = this.screen;
    this.screen = 'joining';   // (the socket may reconnect to follow the table: that picks up no lobby)
    const res = await this.lobby.joinCode(code);
    if (!res) {   // refused (the person was told): back to the lobby it left, or to it from a code's link
      if (location.hash.startsWith('#/code/')) history.replaceState(null, '', '#/');
      if (was === 'lobby') { this.screen = was; this.lobby.watch(); } else await this.enterLobby();
      return;
    }
    this.setupRoom(res.room.id, res);
    history.replaceState(null, '', `#/room/${res.room.id}`);
  }

  // ------------------------------------------------------------------ rooms
  /** #/room/<id>: the room joined, from the replica that holds its table. */
  async enterRoom(id) {
    if (this.room && this.room.id !== id) await this.leaveRoom();
    this.lobby.unwatch();
    this.screen = 'room';
    this.entering = id;
    clear(this.main).append(el('p', { class: 'muted', text: this.t('misc.loading') }));
    await this.net.follow(id);   // to the replica holding the table, where the proxy routes by room
    if (this.entering !== id) return;   // (gone elsewhere meanwhile)
    await this.joinRoom(id, false);
  }

  /** room_join (with `since` when we already hold a version). */
  async joinRoom(id, rejoin) {
    const held = this.room && this.room.id === id ? this.room : null;
    const res = await this.net.request('room_join', held ? held.joinPayload(rejoin) : { room: id });
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
      const r = new RoomSession(this.net, id, res.room, this.session?.person ?? null, {
        render: () => { if (this.room === r) this.renderRoom(); },
        rejoin: () => this.joinRoom(id, true),
        refused: (e) => this.toast(refusal(this.t, e)) });
      r.chat = roomChat(r, this.page);
      this.room = r;
      this.screen = 'room';
    }
    this.room.joined(res, fresh);
  }

  async leaveRoom() {
    const r = this.room;
    if (!r) return;
    this.room = null;
    await r.leave();
  }

  watchdog() {
    const r = this.room;
    if (!r || r.stream.v === null || r.state?.status !== 'playing' || Date.now() - this._lastHeard < QUIET_MS) return;
    this._lastHeard = Date.now();
    r.catchUp();
  }

  /** The room's screen: the waiting room, or the table of its rule set (ui/roomscreen.js). */
  renderRoom() {
    const r = this.room;
    if (r) renderRoomScreen(r, this.main, this.page, { rematch: () => this.rematch(r) });
  }

  /** Ask for a rematch of room `r` (or accept it: the same request), go to its room and sit in our old seat. */
  async rematch(r) {
    const res = await r.send('rematch', {});
    if (!res.ok) { this.toast(refusal(this.t, res.error)); return; }
    await this.enterRoom(res.room);
    if (this.room?.id !== res.room) return;
    const me = this.session?.person;
    const seat = (res.seats || [])[0];
    const held = this.room.state?.seats?.[seat];
    if (seat !== undefined && !(held && held.person === me)) await this.room.request('sit', { seat });
    this.go(`room/${res.room}`);
  }

  /** Send a decision in the room on screen (the browser tests play through it too). */
  act(action) { return this.room.act(action); }
}

const app = new App(document.getElementById('app'));
app.start();
