/**
 * Just enough DXF to draw LibreCAD's bundled library parts as SVG line art for the blueprint
 * class: LINE, CIRCLE, ARC, LWPOLYLINE and POLYLINE/VERTEX from the ENTITIES section. Text,
 * hatches and block inserts are left out (the drawings stay recognisable as technical line art).
 */

interface Point {
  x: number;
  y: number;
}

type Shape =
  | { kind: 'line'; a: Point; b: Point }
  | { kind: 'circle'; c: Point; r: number }
  | { kind: 'arc'; c: Point; r: number; start: number; end: number }
  | { kind: 'poly'; points: Point[]; closed: boolean };

function pairs(text: string): Array<[number, string]> {
  const lines = text.split(/\r?\n/);
  const out: Array<[number, string]> = [];
  for (let i = 0; i + 1 < lines.length; i += 2) out.push([Number(lines[i].trim()), lines[i + 1].trim()]);
  return out;
}

export function parseDxfShapes(text: string): Shape[] {
  const all = pairs(text);
  const shapes: Shape[] = [];
  let i = all.findIndex(([code, value], k) => code === 2 && value === 'ENTITIES' && all[k - 1]?.[1] === 'SECTION');
  if (i < 0) return shapes;
  let poly: { points: Point[]; closed: boolean } | null = null;
  while (++i < all.length) {
    const [code, value] = all[i];
    if (code !== 0) continue;
    if (value === 'ENDSEC') break;
    // Collect this entity's group codes up to the next entity.
    const groups = new Map<number, string[]>();
    let j = i + 1;
    for (; j < all.length && all[j][0] !== 0; j++) {
      const list = groups.get(all[j][0]) ?? [];
      list.push(all[j][1]);
      groups.set(all[j][0], list);
    }
    const num = (c: number, k = 0) => Number(groups.get(c)?.[k] ?? 0);
    switch (value) {
      case 'LINE':
        shapes.push({ kind: 'line', a: { x: num(10), y: num(20) }, b: { x: num(11), y: num(21) } });
        break;
      case 'CIRCLE':
        shapes.push({ kind: 'circle', c: { x: num(10), y: num(20) }, r: num(40) });
        break;
      case 'ARC':
        shapes.push({ kind: 'arc', c: { x: num(10), y: num(20) }, r: num(40), start: num(50), end: num(51) });
        break;
      case 'LWPOLYLINE': {
        const xs = groups.get(10) ?? [],
          ys = groups.get(20) ?? [];
        const points = xs.map((x, k) => ({ x: Number(x), y: Number(ys[k] ?? 0) }));
        if (points.length > 1) shapes.push({ kind: 'poly', points, closed: (num(70) & 1) === 1 });
        break;
      }
      case 'POLYLINE':
        poly = { points: [], closed: (num(70) & 1) === 1 };
        break;
      case 'VERTEX':
        poly?.points.push({ x: num(10), y: num(20) });
        break;
      case 'SEQEND':
        if (poly && poly.points.length > 1) shapes.push({ kind: 'poly', ...poly });
        poly = null;
        break;
    }
    i = j - 1;
  }
  return shapes.filter((s) => {
    const values = JSON.stringify(s).match(/-?\d+(\.\d+)?(e-?\d+)?/g) ?? [];
    return values.every((v) => Number.isFinite(Number(v)));
  });
}

/** An SVG of the drawing, fitted to `size` px on its longer side, ink on white. */
export function dxfToSvg(text: string, size: number, strokePx = 1.5): string | null {
  const shapes = parseDxfShapes(text);
  if (shapes.length < 3) return null;
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  const grow = (p: Point, r = 0) => {
    minX = Math.min(minX, p.x - r);
    maxX = Math.max(maxX, p.x + r);
    minY = Math.min(minY, p.y - r);
    maxY = Math.max(maxY, p.y + r);
  };
  for (const s of shapes) {
    if (s.kind === 'line') {
      grow(s.a);
      grow(s.b);
    } else if (s.kind === 'poly') s.points.forEach((p) => grow(p));
    else grow(s.c, s.r);
  }
  const span = Math.max(maxX - minX, maxY - minY);
  if (!(span > 0)) return null;
  const margin = 0.05 * span;
  const scale = size / (span + 2 * margin);
  const width = Math.max(16, Math.round((maxX - minX + 2 * margin) * scale));
  const height = Math.max(16, Math.round((maxY - minY + 2 * margin) * scale));
  // DXF's y axis points up, SVG's down.
  const X = (x: number) => ((x - minX + margin) * scale).toFixed(2);
  const Y = (y: number) => ((maxY - y + margin) * scale).toFixed(2);
  const parts: string[] = [];
  for (const s of shapes) {
    if (s.kind === 'line') parts.push(`M${X(s.a.x)} ${Y(s.a.y)}L${X(s.b.x)} ${Y(s.b.y)}`);
    else if (s.kind === 'poly') parts.push(`M${s.points.map((p) => `${X(p.x)} ${Y(p.y)}`).join('L')}${s.closed ? 'Z' : ''}`);
    else if (s.kind === 'circle') {
      const r = (s.r * scale).toFixed(2);
      const there = (2 * s.r * scale).toFixed(2),
        back = (-2 * s.r * scale).toFixed(2);
      parts.push(`M${X(s.c.x - s.r)} ${Y(s.c.y)}a${r} ${r} 0 1 0 ${there} 0a${r} ${r} 0 1 0 ${back} 0`);
    } else {
      const a0 = (s.start * Math.PI) / 180,
        a1 = (s.end * Math.PI) / 180;
      let sweep = a1 - a0;
      while (sweep <= 0) sweep += 2 * Math.PI;
      const r = (s.r * scale).toFixed(2);
      const p0 = { x: s.c.x + s.r * Math.cos(a0), y: s.c.y + s.r * Math.sin(a0) };
      const p1 = { x: s.c.x + s.r * Math.cos(a1), y: s.c.y + s.r * Math.sin(a1) };
      parts.push(`M${X(p0.x)} ${Y(p0.y)}A${r} ${r} 0 ${sweep > Math.PI ? 1 : 0} 0 ${X(p1.x)} ${Y(p1.y)}`);
    }
  }
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<rect width="100%" height="100%" fill="#fff"/>` +
    `<path d="${parts.join('')}" fill="none" stroke="#000" stroke-width="${strokePx}" stroke-linecap="round"/></svg>`
  );
}
