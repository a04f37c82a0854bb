// A turn report's events in words (EXPEDITIONS.md E13), in the current language, as sentences a player
// reads aloud: islands by name, beaches by side ("Tonga's north beach"), places by the island beside them,
// never a tile's code or a cell's numbers. Pure.
import { orderWords } from './orders.js';

/** The island's name on this map (its abbreviation when the map does not hold it). */
export function islandName(abbr, view) {
  const tile = (view?.tiles || []).find((x) => x.tile === abbr);
  return tile?.name || abbr;
}

/** "Tonga's north beach". */
export const beachWords = (abbr, side, t, view) => t(`ex.beach.${side}`, { island: islandName(abbr, view) });

/** A cell by the nearest island and the direction from it ("north-east of Tonga"; "on Oahu"). */
export function placeWords(cell, t, view, except = null) {
  if (!Array.isArray(cell)) return '';
  const islands = (view?.tiles || []).filter((x) => x.kind === 'island' && x.tile !== except);
  let best = null, dist = Infinity;
  for (const i of islands) {
    const d = Math.max(Math.abs(i.cell[0] - cell[0]), Math.abs(i.cell[1] - cell[1])) * 10
      + Math.abs(i.cell[0] - cell[0]) + Math.abs(i.cell[1] - cell[1]);
    if (d < dist) { best = i; dist = d; }
  }
  if (!best) return '';
  const dx = cell[0] - best.cell[0], dy = cell[1] - best.cell[1];
  if (!dx && !dy) return t('ex.place.on', { island: best.name });
  const dir = (dy < 0 ? 'N' : dy > 0 ? 'S' : '') + (dx > 0 ? 'E' : dx < 0 ? 'W' : '');
  return t(`ex.place.${dir}`, { island: best.name });
}

/** "Red", "Red and Blue", "Red, Blue and Green". */
export function listWords(items, t) {
  if (items.length <= 1) return items.join('');
  return t('ex.and', { list: items.slice(0, -1).join(', '), last: items[items.length - 1] });
}

/** One event as a sentence of the turn report; `who(colour)` names a player, `view` the map that names
 *  its islands and places. */
export function eventWords(e, t, who, view = null) {
  const names = (cs) => listWords((cs || []).map(who), t);
  const isle = (abbr) => islandName(abbr, view);
  const beach = (abbr, side) => beachWords(abbr, side, t, view);
  switch (e.type) {
    case 'submitted': return t('ex.ev.submitted', { who: who(e.colour) });
    case 'deadline': return t('ex.ev.deadline', { names: names(e.missing) || '—' });
    case 'orders': return t('ex.ev.orders', { list: Object.entries(e.orders).map(([c, o]) => `${who(c)}: ${orderWords(o, t, view)}`).join(' · ') });
    case 'royal_founded': return t('ex.ev.royal_founded', { who: who(e.colour), island: isle(e.island), n: e.returned });
    case 'boat_moved': return t(e.to === 'supply' ? 'ex.ev.boat_back' : 'ex.ev.boat_placed', { who: who(e.colour), beach: beach(e.island, e.beach) });
    case 'move_failed': return t('ex.ev.move_failed', { who: who(e.colour), island: isle(e.island) });
    case 'migration_phase': return t('ex.ev.migration_phase', { n: (e.overflowing || []).length });
    case 'fleet_departed': return t('ex.ev.fleet_departed', { owners: names([...new Set(e.boats)]), n: e.boats.length, mv: e.mv,
      side: t(`ex.side.${e.beach}`), beach: beach(e.island, e.beach) });
    case 'tile_placed': {
      const tile = (view?.tiles || []).find((x) => x.tile === e.tile);
      const island = tile ? tile.kind === 'island' : !/^S\d+$/.test(e.tile);
      return island ? t('ex.ev.island_found', { island: isle(e.tile), value: tile?.value ?? '?', place: placeWords(e.cell, t, view, e.tile) })
        : t('ex.ev.sea_found', { place: placeWords(e.cell, t, view) });
    }
    case 'route_sailed': return e.survived
      ? t('ex.ev.route_ok', { factor: e.factor, mv: e.mv, exit: t(`ex.side.${e.exit}`) })
      : t('ex.ev.route_lost', { factor: e.factor, mv: e.mv });
    case 'fleet_lost': return t(e.how === 'edge' ? 'ex.ev.lost_edge' : 'ex.ev.lost_weather', { n: (e.boats || []).length });
    case 'bounced': return t('ex.ev.bounced', { royal: isle(e.royal), island: isle(e.back_to) });
    case 'landfall': return t('ex.ev.landfall', { island: isle(e.island),
      list: (e.placements || []).map(([c, b]) => t('ex.ev.landed_on', { who: who(c), side: t(`ex.side.${b}`) })).join(', ') });
    case 'fleet_at_sea': return t('ex.ev.fleet_at_sea', { place: placeWords(e.cell, t, view) });
    case 'typhoon_drawn': return t(e.struck ? 'ex.ev.typhoon_drawn' : 'ex.ev.typhoon_calm', { number: e.number });
    case 'typhoon': return t('ex.ev.typhoon', { place: placeWords(e.cell, t, view) });
    case 'turn_scored': return t('ex.ev.turn_scored', { list: Object.entries(e.scores).map(([c, n]) => `${who(c)} ${n}`).join(' · ') });
    case 'game_over': return t('ex.ev.game_over', { reason: t(`ex.reason.${e.reason}`), names: names(e.result?.winners), n: (e.result?.winners || []).length });
    default: return e.type;
  }
}

/** The cell an event happens on, for the board to show it (null: none). */
export function eventCell(e, view) {
  if (Array.isArray(e.cell)) return e.cell;
  if (e.island && view) {
    const tile = (view.tiles || []).find((x) => x.tile === e.island);
    if (tile) return tile.cell;
  }
  return null;
}

/** Whether a game message's events resolve a turn (they make a turn report). */
export const resolves = (events) => (events || []).some((e) => e.type === 'orders');

/** The report part of a message's events: from the deadline or the revealed orders on. */
export function reportOf(events) {
  const i = events.findIndex((e) => e.type === 'deadline' || e.type === 'orders');
  return i < 0 ? [] : events.slice(i);
}
