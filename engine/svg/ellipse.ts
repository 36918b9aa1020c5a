/**
 * A region whose whole outline is one ring that the fitter recognised as an ellipse
 * (engine/fit/ellipse.ts) is written as the <circle> or <ellipse> an illustrator would have drawn,
 * instead of a path of two arcs.
 */
import type { FittedChains } from '../fit/chain.js';
import { ellipseOfPath, type Ellipse } from '../fit/ellipse.js';

export interface SvgEllipse extends Ellipse {
  kind: 'ellipse';
  paint: string;
}

/** The benchmark (and an editor) counts a <circle> or <ellipse> as four nodes. */
export const ELLIPSE_NODES = 4;

/** Chain c's ellipse, when its fit is one (two half arcs round a closed chain). */
export function fittedEllipse(fitted: FittedChains, c: number): Ellipse | null {
  if (fitted.count[c] !== 2 || fitted.kinds[fitted.kindAt[c]] !== 2 || fitted.kinds[fitted.kindAt[c] + 1] !== 2) return null;
  const path = fitted.path(c);
  return path === undefined ? null : ellipseOfPath(path);
}

/** Numbers on the paths' 0.1 px grid, so the element meets its neighbours' arcs exactly. */
function tenth(v: number): string {
  const s = (Math.round(v * 10) / 10).toString();
  return s.startsWith('0.') ? s.slice(1) : s.startsWith('-0.') ? '-' + s.slice(2) : s;
}

export function ellipseXml(e: SvgEllipse): string {
  if (e.rx === e.ry) return `<circle fill="${e.paint}" cx="${tenth(e.cx)}" cy="${tenth(e.cy)}" r="${tenth(e.rx)}"/>`;
  const rotation = Math.round(e.rotation * 10) / 10;
  if (rotation !== 0 && e.paint.startsWith('url(')) {
    // A transform would turn a gradient in user space along with the shape: two arcs instead
    // (four nodes, as the element counts).
    const ux = e.rx * Math.cos((rotation * Math.PI) / 180),
      uy = e.rx * Math.sin((rotation * Math.PI) / 180);
    const arc = `${tenth(e.rx)} ${tenth(e.ry)} ${rotation} 1 0`;
    const start = `${tenth(e.cx + ux)} ${tenth(e.cy + uy)}`;
    const d = `M${start}A${arc} ${tenth(e.cx - ux)} ${tenth(e.cy - uy)}A${arc} ${start}z`;
    return `<path fill="${e.paint}" d="${d}"/>`;
  }
  const turn = rotation === 0 ? '' : ` transform="rotate(${rotation} ${tenth(e.cx)} ${tenth(e.cy)})"`;
  return `<ellipse fill="${e.paint}" cx="${tenth(e.cx)}" cy="${tenth(e.cy)}" rx="${tenth(e.rx)}" ry="${tenth(e.ry)}"${turn}/>`;
}
