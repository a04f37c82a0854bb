// Readable text for events (the game log) and actions (the list of legal moves). Pure.
import { neighbour } from './hex.js';

const colourName = (t, c) => t(`colour.${c}`);

export function describeEvent(ev, t) {
  const col = (c) => colourName(t, c);
  switch (ev.type) {
    case 'boats_placed': return t('ev.boats_placed', { colour: col(ev.colour), n: (ev.beaches || []).length, island: ev.island });
    case 'boat_taken_back': return t('ev.boat_taken_back', { colour: col(ev.colour), island: ev.island });
    case 'royal_founded': return t('ev.royal_founded', { colour: col(ev.colour), island: ev.island });
    case 'colonisation': return t('ev.colonisation', { colour: col(ev.colour), n: countReturned(ev.returned) });
    case 'fleet_departed': return t('ev.fleet_departed', { n: (ev.boats || []).length, colours: ev.colours, island: ev.island, dir: t(`dir.${ev.pier}`) });
    case 'tile_drawn': return t('ev.tile_drawn', { tile: tileLabel(ev, t) });
    case 'tile_placed': return t('ev.tile_placed', { tile: tileLabel(ev, t) });
    case 'path_followed': return null; // shown on the board, too fine-grained for the log
    case 'crossing': if (!ev.danger && ev.passed) return null; return t(ev.passed ? 'ev.crossing_pass' : 'ev.crossing_fail', { danger: ev.danger, colours: ev.colours });
    case 'sunk': return t('ev.sunk', { n: (ev.boats || []).length });
    case 'turned_back': return t('ev.turned_back', { island: ev.island });
    case 'fleet_arrived': return t('ev.fleet_arrived', { island: ev.island });
    case 'landed': {
      const r = countReturned(ev.returned);
      const n = (ev.placements || []).length;
      return r ? t('ev.landed_returned', { n, island: ev.island, r }) : t('ev.landed', { n, island: ev.island });
    }
    case 'endless_chain': return t('ev.endless_chain', { islands: (ev.islands || []).join(', ') });
    case 'island_removed': return t('ev.island_removed', { island: ev.island });
    case 'fleet_at_sea': return t('ev.fleet_at_sea');
    case 'turn_passed': return t('ev.turn_passed', { turn: ev.turn, colour: col(ev.to) });
    case 'game_over': return t('ev.game_over');
    default: return ev.type;
  }
}

/** `returned` may be a list of colours, a {colour: n} map or a number. */
export function countReturned(r) {
  if (!r) return 0;
  if (typeof r === 'number') return r;
  if (Array.isArray(r)) return r.length;
  if (typeof r === 'object') return Object.values(r).reduce((a, b) => a + (Number(b) || 0), 0);
  return 0;
}

/** A tile as players know it: an island by its name and value, an ocean tile by its dangers (its letter
 *  in the box means nothing at the table). `tile`: a tile's drawing ({tile, kind, value | paths}). */
/** An ocean tile's dangers from its paths, smallest first (a path of danger 0 prints none). */
export function dangersOf(paths) {
  return (paths || []).map((p) => p[2]).filter((d) => d > 0).sort((a, b) => a - b);
}

export function tileWords(tile, t) {
  if (!tile) return '';
  if (tile.kind === 'island') return t('tile.island_words', { island: tile.tile, value: tile.value ?? '?' });
  const dangers = dangersOf(tile.paths);
  return dangers.length ? t('tile.ocean_words', { dangers: dangers.join(' · '), n: dangers.length }) : t('tile.ocean_calm');
}

/** An empty space in words: beside which tile, on which side ("south of Tonga"); an island neighbour
 *  first (players find islands), else an ocean tile by its dangers; '' when no tile is beside it. */
export function placeWords(view, cell, t) {
  const near = [];
  for (let d = 0; d < 6; d++) {
    const n = neighbour(cell, d);
    const tile = (view?.tiles || []).find((x) => x.cell[0] === n[0] && x.cell[1] === n[1]);
    if (tile) near.push({ tile, side: (d + 3) % 6 });
  }
  const by = near.find((x) => x.tile.kind === 'island') || near[0];
  if (!by) return '';
  const name = by.tile.kind === 'island' ? by.tile.tile : t('a11y.the_ocean_tile', { tile: tileWords(by.tile, t) });
  return t(`place.side.${by.side}`, { tile: name });
}

function tileLabel(ev, t) {
  if (ev.kind === 'island') return ev.value !== undefined ? `${ev.tile} (${ev.value})` : ev.tile;
  if (ev.kind !== 'ocean') return ev.tile;
  // a drawn tile's event names no paths: the client adds its `dangers` (eventplayer.js, gamelog.js)
  const dangers = ev.dangers ?? (ev.view?.paths || []).map((p) => p[2]).filter((d) => d > 0);
  return dangers.length ? t('tile.ocean_dangers', { dangers: dangers.join(' · ') }) : t('tile.ocean');
}

/** A legal action in words; `view`: the position it is played in (names a tile's place by its
 *  neighbour rather than by coordinates). */
export function describeAction(a, t, view = null) {
  const dir = (d) => t(`dir.${d}`);
  switch (a.type) {
    case 'setup': return t('act.setup', { b: a.beach + 1 });
    case 'expand': {
      let s = t('act.expand', { island: a.island, beaches: a.beaches.map((b) => b + 1).join(', '), k: a.beaches.length });
      if (a.take_back) s += ' ' + t('act.take_back', { island: a.take_back.island, b: a.take_back.beach + 1 });
      return s;
    }
    case 'royal': return t('act.royal', { island: a.island });
    case 'colonise': return t('act.colonise');
    case 'restart': return a.tonga ? t('act.restart_tonga', { beaches: a.tonga.map((b) => b + 1).join(', '), k: a.tonga.length }) : t('act.restart_island', { island: a.island, b: a.beach + 1 });
    case 'migrate': return t('act.migrate', { island: a.island, b: a.beach + 1, dir: dir(a.pier) });
    case 'land': return t('act.land', { boats: a.boats.map(([c, b]) => `${t(`colour.${c}`)}→${b + 1}`).join(', ') || '—' });
    case 'place_tile': return t('act.place_tile', { place: placeWords(view, a.cell, t) || `(${a.cell[0]}, ${a.cell[1]})`, rot: dir(a.rotation) });
    case 'settle': return t('act.settle', { b: a.beach + 1 });
    case 'turn_tile': return t('act.turn_tile', { rot: dir(a.rotation) });
    default: return JSON.stringify(a);
  }
}
