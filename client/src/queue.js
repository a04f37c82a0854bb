// The animation queue: tasks (async functions) run strictly one after another, so a client can
// `await` each server event in turn. Speed scales every wait; skip() finishes what is queued at once.
// Pure: timers are injectable, no DOM.

export class AnimationQueue {
  constructor({ speed = 1, timers = globalThis, skipWhen = () => false } = {}) {
    this.speed = speed;
    this.skipWhen = skipWhen;       // e.g. a hidden tab: no point in waiting           // 1 = normal; 2 = twice as fast; 0 = instant
    this.timers = timers;
    this.tasks = [];
    this.running = false;
    this.skipping = false;
    this.waits = new Set();
    this.idleWaiters = [];
    this.onError = (e) => { (globalThis.console || { error() {} }).error(e); };
  }

  get busy() { return this.running || this.tasks.length > 0; }
  get pending() { return this.tasks.length; }

  setSpeed(s) { this.speed = Math.max(0, Number(s) || 0); }

  /** Queue one task (fn(ctx) → promise|undefined). Resolves when that task has finished. */
  push(fn) {
    return new Promise((resolve) => {
      this.tasks.push({ fn, resolve });
      this._pump();
    });
  }

  /** Queue several tasks; resolves when the last has finished. */
  pushAll(fns) {
    let last = Promise.resolve();
    for (const fn of fns) last = this.push(fn);
    return last;
  }

  /** Finish every queued task now: waits resolve immediately until the queue is empty. */
  skip() {
    if (!this.busy) return;
    this.skipping = true;
    for (const w of [...this.waits]) w.finish();
  }

  /** Drop tasks not yet started (e.g. a fresh snapshot replaces everything); the running one completes. */
  clear() {
    const dropped = this.tasks.splice(0);
    for (const t of dropped) t.resolve(false);
    this.skip();
  }

  idle() {
    if (!this.busy) return Promise.resolve();
    return new Promise((r) => this.idleWaiters.push(r));
  }

  /** A wait of `ms` milliseconds at speed 1, shortened by the speed, cut short by skip(). */
  wait(ms) {
    if (this.skipping || this.speed === 0 || ms <= 0 || this.skipWhen()) return Promise.resolve();
    const dur = ms / this.speed;
    return new Promise((resolve) => {
      const w = {
        id: this.timers.setTimeout(() => w.finish(), dur),
        finish: () => {
          if (!this.waits.has(w)) return;
          this.waits.delete(w);
          this.timers.clearTimeout(w.id);
          resolve();
        },
      };
      this.waits.add(w);
    });
  }

  /** Context handed to each task. */
  get ctx() {
    const q = this;
    return {
      wait: (ms) => q.wait(ms),
      get speed() { return q.speed; },
      get skipping() { return q.skipping || q.speed === 0; },
    };
  }

  async _pump() {
    if (this.running) return;
    this.running = true;
    while (this.tasks.length) {
      const { fn, resolve } = this.tasks.shift();
      try {
        await fn(this.ctx);
      } catch (e) {
        this.onError(e);
      }
      resolve(true);
    }
    this.running = false;
    this.skipping = false;
    const ws = this.idleWaiters.splice(0);
    for (const r of ws) r();
  }
}
