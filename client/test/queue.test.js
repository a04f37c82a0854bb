import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AnimationQueue } from '../src/queue.js';

test('tasks run one after another, in order', async () => {
  const q = new AnimationQueue();
  const log = [];
  const task = (name, ms) => async (ctx) => { log.push(`start ${name}`); await ctx.wait(ms); log.push(`end ${name}`); };
  const done = q.pushAll([task('a', 20), task('b', 5), task('c', 1)]);
  assert.equal(q.busy, true);
  await done;
  assert.deepEqual(log, ['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  assert.equal(q.busy, false);
});

test('each push resolves when its own task ends', async () => {
  const q = new AnimationQueue();
  const order = [];
  const p1 = q.push(async (ctx) => { await ctx.wait(10); }).then(() => order.push(1));
  const p2 = q.push(async () => {}).then(() => order.push(2));
  await Promise.all([p1, p2]);
  assert.deepEqual(order, [1, 2]);
});

test('speed scales waits; speed 0 is instant', async () => {
  const calls = [];
  const timers = { setTimeout: (fn, ms) => { calls.push(ms); return setTimeout(fn, 0); }, clearTimeout };
  const q = new AnimationQueue({ speed: 2, timers });
  await q.push((ctx) => ctx.wait(100));
  assert.deepEqual(calls, [50]);
  q.setSpeed(0);
  await q.push((ctx) => ctx.wait(100));
  assert.deepEqual(calls, [50], 'no timer at speed 0');
});

test('skip finishes the running wait and everything queued at once', async () => {
  const q = new AnimationQueue();
  const log = [];
  const t0 = Date.now();
  const done = q.pushAll([1, 2, 3].map((i) => async (ctx) => { await ctx.wait(5000); log.push(i); }));
  await new Promise((r) => setTimeout(r, 10));
  q.skip();
  await done;
  assert.deepEqual(log, [1, 2, 3]);
  assert.ok(Date.now() - t0 < 1000);
  // after the queue drains, animations run normally again
  assert.equal(q.skipping, false);
});

test('clear drops tasks not yet started; a failing task does not stop the queue', async () => {
  const q = new AnimationQueue();
  q.onError = () => {};
  const log = [];
  q.push(async (ctx) => { await ctx.wait(20); log.push('a'); });
  const dropped = q.push(async () => log.push('dropped'));
  q.clear();
  assert.equal(await dropped, false);
  await q.push(async () => { throw new Error('boom'); });
  await q.push(async () => log.push('after'));
  assert.deepEqual(log, ['a', 'after']);
});

test('idle() resolves when the queue has drained', async () => {
  const q = new AnimationQueue();
  let ran = false;
  q.push(async (ctx) => { await ctx.wait(5); ran = true; });
  await q.idle();
  assert.equal(ran, true);
  await q.idle();
});

test('skipWhen (a hidden tab) makes waits instant', async () => {
  let hidden = true;
  const q = new AnimationQueue({ skipWhen: () => hidden });
  const t0 = Date.now();
  await q.push((ctx) => ctx.wait(5000));
  assert.ok(Date.now() - t0 < 500);
  hidden = false;
  const t1 = Date.now();
  await q.push((ctx) => ctx.wait(30));
  assert.ok(Date.now() - t1 >= 25);
});
