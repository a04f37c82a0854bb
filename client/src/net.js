// The network layer (docs/protocol.md): Socket.IO with the msgpack parser, identity by the session token
// kept in localStorage, requests with acknowledgements, connection state.
import { io } from 'socket.io-client';
import * as msgpackParser from 'socket.io-msgpack-parser';

export const PROTOCOL = 2;
const TOKEN_KEY = 'tongiaki.token';
const NAME_KEY = 'tongiaki.name';

export function storedName() { try { return localStorage.getItem(NAME_KEY) || ''; } catch { return ''; } }
export function storeName(n) { try { localStorage.setItem(NAME_KEY, n); } catch { /* private mode */ } }
function storedToken() { try { return localStorage.getItem(TOKEN_KEY) || undefined; } catch { return undefined; } }
function storeToken(t) { try { localStorage.setItem(TOKEN_KEY, t); } catch { /* private mode */ } }

/** GET a JSON answer of the HTTP API (docs/protocol.md §12) as this person (their session token): a
 *  private room's games are listed and readable to its players only. null when it is not there. */
export async function apiJson(url) {
  const token = storedToken();
  try {
    const r = await fetch(url, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
    return r.ok ? await r.json() : null;
  } catch { return null; }
}

/** Sends a JSON body to the HTTP API as this person (POST; the notification settings, server/notify/api.py):
 *  the answer and its status, { status: 0 } when the server could not be reached. */
export async function apiSend(url, body) {
  const token = storedToken();
  try {
    const r = await fetch(url, { method: 'POST', body: JSON.stringify(body),
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) } });
    return { status: r.status, body: await r.json().catch(() => null) };
  } catch { return { status: 0, body: null }; }
}

export class Net {
  constructor({ url = undefined, timeout = 10000 } = {}) {
    this.url = url;
    this.timeout = timeout;
    this.status = 'connecting';
    this.session = null;
    this.handlers = new Map();
    this.table = null;    // the room this socket was connected for (`follow`)
    this.byRoom = false;  // the server asks for a table's socket to carry its room (`route: 'room'`)
  }

  on(event, fn) {
    if (!this.handlers.has(event)) this.handlers.set(event, new Set());
    this.handlers.get(event).add(fn);
    return () => this.handlers.get(event).delete(fn);
  }

  _emitLocal(event, data) {
    for (const fn of this.handlers.get(event) || []) {
      try { fn(data); } catch (e) { console.error(e); }
    }
  }

  connect() {
    const auth = (cb) => {
      const a = { protocol: PROTOCOL };
      const token = storedToken();
      if (token) a.token = token;
      const name = storedName().trim();
      if (name) a.name = name.slice(0, 24);
      cb(a);
    };
    this.socket = io(this.url, {
      parser: msgpackParser, auth, transports: ['websocket', 'polling'], query: this.table ? { room: this.table } : {},
      reconnectionDelay: 500, reconnectionDelayMax: 4000,
    });
    const setStatus = (s) => { this.status = s; this._emitLocal('status', s); };
    this.socket.on('connect', () => setStatus('online'));
    this.socket.on('disconnect', () => setStatus('offline'));
    this.socket.on('connect_error', (err) => { setStatus('offline'); this._emitLocal('connect_error', err); });
    this.socket.on('session', (s) => {
      if (s && s.token) storeToken(s.token);
      this.byRoom = s?.route === 'room';
      this.session = { person: s.person, name: s.name, seats: s.seats || [], resumed: !!s.resumed };
      if (s.name) storeName(s.name);
      this._emitLocal('session', this.session);
    });
    for (const ev of ['lobby', 'room', 'game', 'legal', 'chat', 'resync']) this.socket.on(ev, (d) => this._emitLocal(ev, d));
  }

  /** Send one request; resolves with the ack map ({ok: true, …} or {ok: false, error: {code, message}}). */
  request(event, payload = {}) {
    return new Promise((resolve) => {
      if (!this.socket || !this.socket.connected) {
        resolve({ ok: false, error: { code: 'offline', message: 'not connected' } });
        return;
      }
      this.socket.timeout(this.timeout).emit(event, payload, (err, ack) => {
        if (err) resolve({ ok: false, error: { code: 'timeout', message: `no answer to ${event}` } });
        else resolve(ack && typeof ack === 'object' ? ack : { ok: false, error: { code: 'internal', message: 'bad ack' } });
      });
    });
  }

  /** The table this page shows (docs/deploy.md, "Scaling out"): where the server asks for it (`route:
   *  'room'` in the session), the socket is connected with `?room=<id>`, so that the proxy routes it to the
   *  replica holding the table; a socket connected for another table or for the lobby reconnects, and this
   *  resolves once it is back (its session told again). Elsewhere nothing changes. */
  async follow(room) {
    const before = this.table;
    this.table = room;
    if (!this.socket) return;
    this.socket.io.opts.query = room ? { room } : {};
    if (!room || room === before || !this.byRoom || !this.socket.connected) return;
    await new Promise((resolve) => {
      const off = this.on('session', () => { off(); resolve(); });
      setTimeout(() => { off(); resolve(); }, this.timeout);
      this.socket.disconnect();
      this.socket.connect();
    });
  }

  /** Drop the connection (tests, "go offline") and come back. */
  disconnect() { this.socket?.disconnect(); }
  reconnect() { this.socket?.connect(); }
}
