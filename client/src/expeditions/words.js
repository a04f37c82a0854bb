// A turn report's events in words (EXPEDITIONS.md E13), in the current language. Pure.
import { orderWords } from './orders.js';

const cellName = (c) => (Array.isArray(c) ? `${c[0]},${c[1]}` : '?');

/** One event as a line of the turn report; `who(colour)` names a player. */
export function eventWords(e, t, who) {
  const names = (cs) => (cs || []).map(who).join(', ');
  switch (e.type) {
    case 'submitted': return t('ex.ev.submitted', { who: who(e.colour) });
    case 'deadline': return t('ex.ev.deadline', { names: names(e.missing) || '—' });
    case 'orders': return t('ex.ev.orders', { list: Object.entries(e.orders).map(([c, o]) => `${who(c)}: ${orderWords(o, t)}`).join(' · ') });
    case 'royal_founded': return t('ex.ev.royal_founded', { who: who(e.colour), island: e.island, n: e.returned });
    case 'boat_moved': return t(e.to === 'supply' ? 'ex.ev.boat_back' : 'ex.ev.boat_placed', { who: who(e.colour), island: e.island, beach: e.beach });
    case 'move_failed': return t('ex.ev.move_failed', { who: who(e.colour), island: e.island, reason: e.reason });
    case 'migration_phase': return t('ex.ev.migration_phase', { n: (e.overflowing || []).length });
    case 'fleet_departed': return t('ex.ev.fleet_departed', { n: e.boats.length, island: e.island, beach: e.beach });
    case 'tile_placed': return t('ex.ev.tile_placed', { tile: e.tile, cell: cellName(e.cell) });
    case 'route_sailed': return t('ex.ev.route_sailed', { tile: e.tile, entry: e.entry, exit: e.exit, factor: e.factor, mv: e.mv,
      ok: e.survived ? t('ex.ev.survived') : t('ex.ev.lost_weather') });
    case 'fleet_lost': return t('ex.ev.fleet_lost', { how: t(`ex.how.${e.how}`), cell: cellName(e.cell) });
    case 'bounced': return t('ex.ev.bounced', { royal: e.royal });
    case 'landfall': return t('ex.ev.landfall', { island: e.island, list: (e.placements || []).map(([c, b]) => `${who(c)} ${b}`).join(', ') });
    case 'fleet_at_sea': return t('ex.ev.fleet_at_sea', { cell: cellName(e.cell) });
    case 'typhoon_drawn': return t('ex.ev.typhoon_drawn', { number: e.number, tile: e.tile, struck: e.struck ? t('ex.ev.struck') : '' });
    case 'typhoon': return t('ex.ev.typhoon', { cell: cellName(e.cell), tile: e.struck, new: e.tile });
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
