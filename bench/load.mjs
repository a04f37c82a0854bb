// Load generator for bench/load.py: N rooms of 4 socket.io clients (the browser's socket.io-client and
// msgpack parser) playing random legal actions, one action per room every 1/rate seconds, plus S
// spectators per room. With --bots=B the last B seats of each room are the server's bots (bot_pace
// --bot-pace): they move on their own, people act on their turns at the same rate. Patches are applied with the browser client's own code (client/src/patch.js).
// Prints MEASURE_START and MEASURE_END as its measured window begins and ends, then one JSON line of
// figures (RESULT), and closes its sockets when a line comes on stdin (or two seconds after).
import { createRequire } from "node:module";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";

const require = createRequire(new URL("../client/package.json", import.meta.url));
const { io } = require("socket.io-client");
const parser = require("socket.io-msgpack-parser");
const notepack = require("notepack.io");
const { applyPatch } = await import(new URL("../client/src/patch.js", import.meta.url));

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, "").split("=")));
// several server processes: sockets are spread over them round-robin, as a proxy without sticky rooms would;
// --route=room sends every socket of room i to process i mod n, as nginx's `hash $arg_room consistent` does
// for a table's sockets (deploy/nginx.conf)
const urls = args.url.split(",");
const byRoom = args.route === "room";
let nextUrl = 0;
const rooms = Number(args.rooms ?? 200);
const spectators = Number(args.spectators ?? 2);
const rate = Number(args.rate ?? 1);
const duration = Number(args.duration ?? 30) * 1000;
const warmup = Number(args.warmup ?? 5) * 1000;
const bots = Number(args.bots ?? 0);
const botPace = Number(args["bot-pace"] ?? 1);
const people = 4 - bots;
// per-message deflate offered only when the measured server compresses (--deflate=1): a server that would
// compress what it is offered (the floor: engine.io's stock websocket does) then pays what ours does not
const deflate = args.deflate === "1" ? { threshold: 1024 } : false;

// the sizes printed are of one message in SAMPLE (encoding each again for its size was a fifth of the
// generator's CPU at 1000 rooms, taken from the servers sharing its cores)
const SAMPLE = 8;
const sampled = { legal: 0, move: 0 };
const stats = { moves: 0, messages: 0, bytes: 0, actions: 0, rejected: 0, latencies: [], patchBytes: [], viewBytes: [],
                messageBytes: [], legalBytes: [], legals: 0, measuring: false, gaps: 0, errors: {} };

function connect(name, table) {
  return new Promise((resolve, reject) => {
    const url = byRoom ? urls[table % urls.length] : urls[nextUrl++ % urls.length];
    const socket = io(url, { transports: ["websocket"], parser, forceNew: true, reconnection: false,
                             perMessageDeflate: deflate,
                             auth: { protocol: 2, name } });
    socket.once("session", () => resolve(socket));
    socket.once("connect_error", reject);
  });
}

async function call(socket, event, data) {
  const answer = await socket.timeout(20000).emitWithAck(event, data);
  if (!answer.ok) throw new Error(`${event}: ${answer.error.code} ${answer.error.message}`);
  return answer;
}

class Seat {
  // a player's seat follows the view (the pending colour, its legal actions); a spectator's counts versions
  // only: what it costs the server is what it is sent, and its gaps are counted all the same
  constructor(socket, room, measure, follows = true) {
    this.socket = socket; this.room = room; this.v = -1; this.view = null; this.measure = measure;
    this.follows = follows;
    this.legal = { v: -1, actions: [] };   // the legal actions this seat was sent, for version v
    this.sent = new Map();   // version expected -> send time
    socket.on("game", (m) => this.onGame(m));
    socket.on("legal", (l) => this.onLegal(l));
  }
  onLegal(l) {
    if (stats.measuring) { stats.legals += 1; if (sampled.legal++ % SAMPLE === 0) stats.legalBytes.push(notepack.encode(l).length); }
    if (l.v >= this.legal.v) this.legal = l;
  }
  onGame(m) {
    const received = performance.now();
    if (stats.measuring) stats.messages += 1;
    if (m.v <= this.v) return;
    if (m.v !== this.v + 1 && this.v >= 0) { stats.gaps += 1; return this.catchUp(); }
    if (this.follows) this.view = applyPatch(this.view, m.patch);
    this.v = m.v;
    const t0 = this.sent.get(m.v);
    if (t0 !== undefined) {
      this.sent.delete(m.v);
      if (stats.measuring) stats.latencies.push(received - t0);
    }
    if (this.measure && stats.measuring) stats.moves += 1;
    if (this.measure && stats.measuring && m.v > 0 && sampled.move++ % SAMPLE === 0) {
      stats.patchBytes.push(notepack.encode(m.patch).length);
      stats.messageBytes.push(notepack.encode(m).length);
      stats.viewBytes.push(notepack.encode(this.view).length);
    }
  }
  async catchUp() {
    const answer = await call(this.socket, "since", { room: this.room, v: Math.max(this.v, 0) });
    if (answer.legal) this.onLegal(answer.legal);
    if (answer.snapshot) { this.view = answer.snapshot.view; this.v = answer.snapshot.v; }
    else for (const m of answer.messages) {
      if (m.v === this.v + 1) { if (this.follows) this.view = applyPatch(this.view, m.patch); this.v = m.v; }
    }
  }
}

async function table(i) {
  const players = [];
  for (let s = 0; s < people; s++) players.push(await connect(`R${i}P${s}`, i));
  const watchers = [];
  for (let s = 0; s < spectators; s++) watchers.push(await connect(`R${i}S${s}`, i));
  const created = await call(players[0], "room_create",
                             { name: `bench ${i}`, seats: 4, bot_pace: bots ? botPace : 0, grace: 600 });
  const room = created.room.id;
  const seats = [];
  for (const [s, socket] of players.entries()) {
    const seat = new Seat(socket, room, s === 0);
    seat.index = s; seat.person = null;
    seats.push(seat);
    if (s > 0) { await call(socket, "room_join", { room }); await call(socket, "sit", { room, seat: s }); }
  }
  for (const socket of watchers) { new Seat(socket, room, false, false); await call(socket, "room_join", { room }); }
  for (let s = people; s < 4; s++) await call(players[0], "bot_add", { room, seat: s });
  return { room, players, watchers, seats };
}

async function drive(t, stopAt) {
  // one action per 1/rate seconds, by whichever client holds the pending colour
  const colours = ["red", "blue", "green", "yellow"];
  let next = performance.now() + Math.random() * 1000 / rate;
  while (performance.now() < stopAt) {
    await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
    next += 1000 / rate;
    const seat = t.seats[0];
    if (!seat.view || !seat.view.pending) continue;          // game over
    const actor = t.seats[colours.indexOf(seat.view.pending.colour)];
    if (!actor) continue;                                     // a bot's turn: it moves by itself
    if (!actor.view || actor.v !== seat.v || actor.legal.v !== actor.v) continue;
    const legal = actor.legal.actions;
    const action = legal[Math.floor(Math.random() * legal.length)];
    actor.sent.set(actor.v + 1, performance.now());
    try {
      const answer = await actor.socket.timeout(20000).emitWithAck("act", { room: t.room, v: actor.v, action });
      if (answer.ok) { if (stats.measuring) stats.actions += 1; }
      else { stats.rejected += 1; stats.errors[answer.error.code] = (stats.errors[answer.error.code] ?? 0) + 1; }
    } catch (e) { stats.rejected += 1; stats.errors.timeout = (stats.errors.timeout ?? 0) + 1; }
  }
}

function percentile(xs, p) {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
}

const t0 = performance.now();
const tables = [];
const batch = 10;
for (let i = 0; i < rooms; i += batch) {
  tables.push(...await Promise.all(Array.from({ length: Math.min(batch, rooms - i) }, (_, k) => table(i + k))));
}
const setup = (performance.now() - t0) / 1000;
for (const t of tables) await call(t.players[0], "room_start", { room: t.room });
process.stderr.write(`set up ${rooms} rooms, ${rooms * (people + spectators)} sockets in ${setup.toFixed(1)} s\n`);
const stopAt = performance.now() + warmup + duration;
let cpuStart = null;
// the generator's own event-loop delay: a receipt it could not run in time adds to measured latency
const loopDelay = monitorEventLoopDelay({ resolution: 5 });
setTimeout(() => {
  stats.measuring = true; cpuStart = process.cpuUsage(); loopDelay.enable(); console.log("MEASURE_START");
}, warmup);
const started = performance.now();
await Promise.all(tables.map((t) => drive(t, stopAt)));
const seconds = (performance.now() - started - warmup) / 1000;
const cpu = process.cpuUsage(cpuStart);
// the window ends here, every socket still open: the server's CPU is read now, before the sockets close
// (closing 2,400 sockets costs the servers more CPU than seconds of play, and it is no action's)
console.log("MEASURE_END");
const out = {
  rooms, spectators, bots, sockets: rooms * (people + spectators), seconds, moves_per_s: stats.moves / seconds,
  actions_per_s: stats.actions / seconds, messages_per_s: stats.messages / seconds,
  latency_ms_p50: percentile(stats.latencies, 0.5), latency_ms_p99: percentile(stats.latencies, 0.99),
  latency_samples: stats.latencies.length, rejected: stats.rejected, errors: stats.errors, gaps: stats.gaps,
  patch_bytes_median: percentile(stats.patchBytes, 0.5), view_bytes_median: percentile(stats.viewBytes, 0.5),
  message_bytes_median: percentile(stats.messageBytes, 0.5), legal_bytes_median: percentile(stats.legalBytes, 0.5),
  legal_per_s: stats.legals / seconds,
  generator_cpu_percent: (100 * (cpu.user + cpu.system)) / 1e6 / seconds,
  // the histogram holds whole timer intervals: the delay is what exceeds the resolution
  generator_lag_ms_p50: Math.max(0, loopDelay.percentile(50) / 1e6 - 5),
  generator_lag_ms_p99: Math.max(0, loopDelay.percentile(99) / 1e6 - 5),
};
console.log("RESULT " + JSON.stringify(out));
// bench.load says when it has read the servers (a line on stdin); run by hand, two seconds
await new Promise((resolve) => {
  const timer = setTimeout(resolve, 2000);
  process.stdin.once("data", () => { clearTimeout(timer); resolve(); });
});
for (const t of tables) for (const s of [...t.players, ...t.watchers]) s.close();
process.exit(0);
