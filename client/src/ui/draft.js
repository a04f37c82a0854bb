// A half-made choice kept across a page reload, in sessionStorage (this tab only: a reload keeps it,
// closing the tab drops it). One draft at a time, for one room and one `stamp` naming the decision it
// belongs to (the version and colours of a turn decision, the turn of an Expeditions order): a draft
// whose stamp is not the current one is worthless and dropped.

const KEY = 'tongiaki.draft';

/** What was saved for `room` under `stamp`, or null (a draft of another decision is dropped). */
export function loadDraft(room, stamp) {
  let d = null;
  try { d = JSON.parse(sessionStorage.getItem(KEY) || 'null'); } catch { return null; }
  if (!d || d.room !== room) return null;
  if (d.stamp !== stamp) { dropDraft(); return null; }
  return d.data ?? null;
}

/** Keep `data` (plain JSON) as the half-made choice of `room`'s decision `stamp`. */
export function saveDraft(room, stamp, data) {
  try { sessionStorage.setItem(KEY, JSON.stringify({ room, stamp, data })); } catch { /* full or private mode */ }
}

export function dropDraft() {
  try { sessionStorage.removeItem(KEY); } catch { /* ignore */ }
}
