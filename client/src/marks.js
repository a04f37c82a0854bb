// A mark per player colour, so that colours can be told apart without seeing colour (deuteranopia,
// protanopia, tritanopia, a grey screen): drawn in white on boats, the royal boat and the seat chips. Pure.
import { round } from './hex.js';

export const MARKS = Object.freeze({
  red: 'circle', blue: 'square', green: 'triangle', yellow: 'diamond', orange: 'cross', purple: 'star',
});

/** SVG path data of `mark` centred on (x, y) within radius r. */
export function markPath(mark, x, y, r) {
  const P = (dx, dy) => `${round(x + dx * r)},${round(y + dy * r)}`;
  switch (mark) {
    case 'circle': return `M${P(-1, 0)} A${round(r)},${round(r)} 0 1 0 ${P(1, 0)} A${round(r)},${round(r)} 0 1 0 ${P(-1, 0)} Z`;
    case 'square': return `M${P(-0.8, -0.8)} L${P(0.8, -0.8)} L${P(0.8, 0.8)} L${P(-0.8, 0.8)} Z`;
    case 'triangle': return `M${P(0, -1)} L${P(0.95, 0.75)} L${P(-0.95, 0.75)} Z`;
    case 'diamond': return `M${P(0, -1.05)} L${P(0.8, 0)} L${P(0, 1.05)} L${P(-0.8, 0)} Z`;
    case 'cross': return `M${P(-0.3, -1)} L${P(0.3, -1)} L${P(0.3, -0.3)} L${P(1, -0.3)} L${P(1, 0.3)} L${P(0.3, 0.3)} ` +
      `L${P(0.3, 1)} L${P(-0.3, 1)} L${P(-0.3, 0.3)} L${P(-1, 0.3)} L${P(-1, -0.3)} L${P(-0.3, -0.3)} Z`;
    case 'star': {
      const pts = [];
      for (let i = 0; i < 10; i++) {
        const a = (-90 + i * 36) * Math.PI / 180, k = i % 2 ? 0.45 : 1.05;
        pts.push(P(Math.cos(a) * k, Math.sin(a) * k));
      }
      return `M${pts.join(' L')} Z`;
    }
    default: return '';
  }
}

export const markOf = (colour) => MARKS[colour] || 'circle';
