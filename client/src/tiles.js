// Tiles are drawn from what the server sends: the view's `tiles`, the `view` of a tile_placed event, and
// the view's `hand` (the tile in hand, in its own sides). The client keeps no catalogue of its own.

/** The tile in hand (`view.hand`, rotation 0) as it would look on `cell` turned by `rotation`. */
export function turnedTile(hand, cell, rotation) {
  if (!hand) return null;
  const w = (s) => (s + rotation) % 6;
  const base = { tile: hand.tile, kind: hand.kind, cell, rotation };
  if (hand.kind === 'ocean') return { ...base, paths: hand.paths.map(([a, b, d]) => [w(a), w(b), d]) };
  return {
    ...base, value: hand.value, royal: null,
    beaches: hand.beaches.map((b) => ({ moorings: b.moorings, piers: b.piers.map(w), boats: [] })),
  };
}
