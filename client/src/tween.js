// Promise-based tweens driven by requestAnimationFrame, cut short when the queue skips.

const raf = (fn) => (globalThis.requestAnimationFrame ? globalThis.requestAnimationFrame(fn) : setTimeout(() => fn(Date.now()), 16));
const now = () => (globalThis.performance ? performance.now() : Date.now());

/** Run onFrame(t in 0..1) over `ms` (scaled by ctx.speed); resolves at t = 1. */
export function tween(ctx, ms, onFrame) {
  return new Promise((resolve) => {
    // a hidden tab gets no animation frames: finish at once rather than stall the queue
    const hidden = () => !!globalThis.document?.hidden;
    if (ctx.skipping || ms <= 0 || hidden()) { onFrame(1); resolve(); return; }
    const dur = ms / (ctx.speed || 1);
    const t0 = now();
    const step = () => {
      const t = ctx.skipping || hidden() ? 1 : Math.min(1, (now() - t0) / dur);
      onFrame(t);
      if (t >= 1) resolve(); else raf(step);
    };
    raf(step);
  });
}

export const ease = (t) => (t < 0.5 ? 2 * t * t : 1 - Math.pow(-2 * t + 2, 2) / 2);
