// The lobby as this page knows it, between the network (net.js) and the lobby screen (ui/lobby.js): the
// rooms listed, kept up to date by the `lobby` events while the page watches, and the lobby's requests
// (the person's name, a new table, a table joined by its code). The screen is given the rooms and callbacks;
// it never sees the network or the app.

export class LobbySession {
  /**
   * @param net the connection (`request(event, data)` answered by an ack)
   * @param hooks `changed()` the rooms listed changed (the lobby screen draws them again); `refused(error)`
   *   tells the person a request was refused
   */
  constructor(net, hooks) {
    this.net = net;
    this.hooks = hooks;
    this.rooms = new Map();    // the rooms listed, by id
    this.revs = new Map();     // by id: the newest revision of the room heard (Infinity: it expired, gone for good)
    this.watching = false;     // this page asked for the lobby's events (`lobby_watch`) and did not stop
    this._heard = new Set();   // for each `lobby_watch` on its way: the `lobby` events heard meanwhile
  }

  /** Watch the lobby: the rooms listed now, then each change as it comes (`onLobby`). False when refused. */
  async watch() {
    this.watching = true;
    // The socket hears `lobby` events from before the listing is read, so one may come before the answer
    // and be newer than the listing (a game started meanwhile): each event heard while the answer was on
    // its way is applied again over it, in order (docs/protocol.md, `lobby_watch`).
    const heard = [];
    this._heard.add(heard);
    let res;
    try {
      res = await this.net.request('lobby_watch', {});
    } finally {
      this._heard.delete(heard);
    }
    if (!res.ok) { this.hooks.refused(res.error); return false; }
    this.rooms = new Map((res.rooms || []).map((r) => [r.id, r]));
    this.revs = new Map((res.rooms || []).filter((r) => r.rev !== undefined).map((r) => [r.id, r.rev]));
    for (const m of heard) this.apply(m);
    this.hooks.changed();
    return true;
  }

  /** Stop watching (the page leaves the lobby): the server sends no more `lobby` events. */
  unwatch() {
    if (!this.watching) return;
    this.watching = false;
    this.net.request('lobby_unwatch', {});
  }

  /** A `lobby` event: a room listed, changed or gone. */
  onLobby(m) {
    for (const heard of this._heard) heard.push(m);
    this.apply(m);
    this.hooks.changed();
  }

  /** The events of a room come from any server process, so two may arrive in either order: an event older
   *  than the room's newest heard (its `rev`) is dropped (docs/protocol.md, `lobby`). */
  apply(m) {
    const id = m.op === 'upsert' ? m.room?.id : m.op === 'remove' ? m.room : undefined;
    if (!id) return;
    const rev = m.op === 'upsert' ? m.room.rev : (m.rev ?? Infinity);
    if (rev !== undefined) {
      if (rev < (this.revs.get(id) ?? -Infinity)) return;
      this.revs.set(id, rev);
    }
    if (m.op === 'upsert') this.rooms.set(id, m.room);
    else this.rooms.delete(id);
  }

  /** The person's name (at most 24 characters, trimmed): the name the server took, or null (none, or refused). */
  async setName(name) {
    name = name.trim().slice(0, 24);
    if (!name) return null;
    const res = await this.net.request('set_name', { name });
    if (!res.ok) { this.hooks.refused(res.error); return null; }
    return res.name || name;
  }

  /** A new table of `settings`: its room's id (the page leaves the lobby for it), or null when refused. */
  async createRoom(settings) {
    const res = await this.net.request('room_create', settings);
    if (!res.ok) { this.hooks.refused(res.error); return null; }
    this.unwatch();
    return res.room.id;
  }

  /** The table of a private code joined (the page leaves the lobby for it): the `room_join` answer, or null
   *  when refused. Where the proxy routes a table's socket by its room (`net.byRoom`), the code was answered
   *  by whichever replica holds the lobby's socket: the socket then follows the table to the replica that
   *  holds it (`net.follow`) and joins it there, so that the table's sockets are all on one replica. */
  async joinCode(code) {
    this.unwatch();
    let res = await this.net.request('room_join', { code });
    if (res.ok && this.net.byRoom) {
      await this.net.follow(res.room.id);
      res = await this.net.request('room_join', { room: res.room.id });
    }
    if (!res.ok) { this.hooks.refused(res.error); return null; }
    return res;
  }
}
