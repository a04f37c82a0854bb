// A half-made choice kept across a page reload: the clicks and presses that made it, for one room, one
// version and one set of colours, in sessionStorage (this tab only; a reload keeps it, closing the tab
// drops it). Replayed through the same input on the same decision they rebuild the same selection; a
// new version of the game makes them worthless, so they are dropped then.

const KEY = 'tongiaki.draft';

/** The draft saved for `room` ({v, colours, trail}), or null. */
export function loadDraft(room) {
  try {
    const d = JSON.parse(sessionStorage.getItem(KEY) || 'null');
    return d && d.room === room && Array.isArray(d.trail) ? d : null;
  } catch { return null; }
}

/** Keep `trail` ([['hit', hit] | ['press', id]], in order) as the half-made choice of version v. */
export function saveDraft(room, v, colours, trail) {
  try { sessionStorage.setItem(KEY, JSON.stringify({ room, v, colours, trail })); } catch { /* full or private mode */ }
}

export function dropDraft() {
  try { sessionStorage.removeItem(KEY); } catch { /* ignore */ }
}
