// What the board shows while the events of one message are being played: the previous view, changed
// event by event (a tile appears, a beach empties as its fleet leaves, boats land). Only drawing: the next
// view from the server replaces it when the events are done. Pure.

const clone = (x) => JSON.parse(JSON.stringify(x));

function islandOf(view, name) {
  return (view.tiles || []).find((t) => t.kind === 'island' && t.tile === name) || null;
}

export function applyEventToDisplay(view, ev) {
  const v = clone(view || { tiles: [] });
  v.tiles = v.tiles || [];
  switch (ev.type) {
    case 'tile_placed': {
      if (!v.tiles.some((t) => t.cell[0] === ev.cell[0] && t.cell[1] === ev.cell[1])) {
        if (ev.view) v.tiles.push(clone(ev.view));
      }
      v.in_hand = null;
      break;
    }
    case 'tile_drawn': v.in_hand = ev.tile; break;
    case 'fleet_departed': {
      const isl = islandOf(v, ev.island);
      if (isl && isl.beaches[ev.beach]) isl.beaches[ev.beach].boats = [];
      v.fleet = null;
      break;
    }
    case 'boats_placed': {
      const isl = islandOf(v, ev.island);
      if (isl) for (const b of ev.beaches || []) if (isl.beaches[b]) isl.beaches[b].boats.push(ev.colour);
      break;
    }
    case 'boat_taken_back': {
      const isl = islandOf(v, ev.island);
      const beach = isl?.beaches[ev.beach];
      if (beach) { const i = beach.boats.lastIndexOf(ev.colour); if (i >= 0) beach.boats.splice(i, 1); }
      break;
    }
    case 'royal_founded': {
      const isl = islandOf(v, ev.island);
      if (isl) { for (const b of isl.beaches) b.boats = []; isl.royal = ev.colour; }
      break;
    }
    case 'colonisation': {
      for (const t of v.tiles) if (t.kind === 'island') for (const b of t.beaches) b.boats = b.boats.filter((c) => c !== ev.colour);
      break;
    }
    case 'landed': {
      const isl = islandOf(v, ev.island);
      if (isl) for (const [c, b] of ev.placements || []) if (isl.beaches[b]) isl.beaches[b].boats.push(c);
      v.fleet = null;
      break;
    }
    case 'island_removed': {
      v.tiles = v.tiles.filter((t) => !(t.cell[0] === ev.cell[0] && t.cell[1] === ev.cell[1]));
      break;
    }
    default: break;
  }
  return v;
}
