// The route a fleet would sail from a pier over the tiles already on the table (RULES.md R7), to preview
// before the person chooses the pier. Pure: it reads the view, never the stack (where the route meets an
// empty cell a tile will be drawn, and nobody knows which).
import { neighbour, cellKey } from './hex.js';

/**
 * From the island on cell `from`, leaving toward world direction `dir` with a fleet of `colours`
 * different colours: the ocean tiles it crosses ({cell, entry, exit, danger, passes}: R7.2, a danger
 * greater than the fleet's colours sinks it) and how the route ends: `sinks` (on the last step), `island`
 * (it lands there, R7.4), `royal` (turned back, R7.3), `unknown` (an empty cell: a tile is drawn there).
 */
export function routeAhead(tiles, from, dir, colours) {
  const byCell = new Map((tiles || []).map((t) => [cellKey(t.cell), t]));
  const steps = [];
  let cell = from, d = dir;
  // paths pair sides, so a route over placed tiles always ends; the bound only guards a malformed view
  for (let guard = 0; guard < 500; guard++) {
    const next = neighbour(cell, d);
    const tile = byCell.get(cellKey(next));
    if (!tile) return { steps, end: 'unknown', cell: next };
    if (tile.kind !== 'ocean') return { steps, end: tile.royal ? 'royal' : 'island', cell: next, island: tile.tile };
    const entry = (d + 3) % 6;
    const path = (tile.paths || []).find(([a, b]) => a === entry || b === entry);
    if (!path) return { steps, end: 'unknown', cell: next };
    const exit = path[0] === entry ? path[1] : path[0];
    const danger = path[2] || 0;
    const passes = danger <= colours;
    steps.push({ cell: next, entry, exit, danger, passes });
    if (!passes) return { steps, end: 'sinks', cell: next };
    cell = next; d = exit;
  }
  return { steps, end: 'unknown', cell };
}

/** The colours of the fleet that would leave from beach `beach` of island `island` (its boats). */
export function fleetColours(tiles, island, beach) {
  const tile = (tiles || []).find((t) => t.tile === island);
  return new Set(tile?.beaches?.[Number(beach)]?.boats || []).size;
}

/** The route in words, for the decision bar: each danger against the fleet's colours, then its end. */
export function routeWords(route, colours, t) {
  const parts = route.steps.filter((s) => s.danger > 0).map((s) =>
    t(s.passes ? 'route.danger_ok' : 'route.danger_sinks', { danger: s.danger, n: colours }));
  parts.push(route.end === 'island' ? t('route.lands', { island: route.island })
    : route.end === 'royal' ? t('route.royal', { island: route.island })
      : route.end === 'sinks' ? t('route.sinks') : t('route.unknown'));
  return parts.join(' → ');
}
