// A tile drawn on its own, small (the tile in hand in the stack panel and the decision bar), by the
// board's own renderer, with its name in words for screen readers.
import { oceanTile, islandTile, SIZE } from '../board.js';
import { toDom, SVG_NS } from '../vdom.js';
import { turnedTile } from '../tiles.js';
import { tileWords } from '../describe.js';

/** An <svg> of `hand` (a tile's drawing in its own sides) turned by `rotation`, labelled in words. */
export function tilePicture(hand, t, rotation = 0, testid = 'tile-picture') {
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('class', 'tile-picture');
  svg.setAttribute('data-testid', testid);
  svg.setAttribute('data-tile', hand.tile);
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', tileWords(hand, t));
  const w = SIZE * 2;
  svg.setAttribute('viewBox', `${-w / 2} ${-w * 0.45} ${w} ${w * 0.9}`);
  const tile = turnedTile(hand, [0, 0], rotation);
  svg.appendChild(toDom(tile.kind === 'ocean' ? oceanTile(tile, SIZE) : islandTile(tile, SIZE)));
  return svg;
}
