/**
 * The boundary graph's crack masks (engine/boundary/index.ts traceChains) in AssemblyScript: every
 * vertex (pixel corner) as a 4-bit mask of the boundary cracks leaving it (bit d: direction d, east
 * south west north), the image's frame included, from one pass over the labels that compares four
 * pixels with the pixels above and to the left at a time (SIMD); then the junctions (three or more
 * cracks) in scan order, and the next vertex with an untraced eastward crack, sixteen vertices
 * skipped at a time where none has one. The walks along the chains stay in TypeScript, reading and
 * clearing the masks where they lie in this module's memory.
 */

/**
 * Writes the masks of the (width + 1) · (height + 1) vertices to `cracks`, and a copy to
 * `untraced`, from the labels (width · height of them, a row after another). Returns how many
 * boundary cracks there are, the frame's included.
 */
export function crackMasks(labels: usize, width: i32, height: i32, cracks: usize, untraced: usize): i32 {
  const V = width + 1;
  const vertices = V * (height + 1);
  memory.fill(cracks, 0, <usize>vertices);
  let boundaryCracks = 2 * (width + height);
  for (let x = 0; x < width; x++) {
    orMask(cracks, x, 1);
    orMask(cracks, x + 1, 4);
    const b = height * V + x;
    orMask(cracks, b, 1);
    orMask(cracks, b + 1, 4);
  }
  for (let y = 0; y < height; y++) {
    const row = labels + (<usize>(y * width) << 2),
      v = y * V;
    orMask(cracks, v, 2);
    orMask(cracks, v + V, 8);
    orMask(cracks, v + width, 2);
    orMask(cracks, v + width + V, 8);
    // the crack left of pixel x (x ≥ 1), and above it (rows below the first)
    const above = y > 0;
    if (above && load<i32>(row - (<usize>width << 2)) !== load<i32>(row)) {
      orMask(cracks, v, 1);
      orMask(cracks, v + 1, 4);
      boundaryCracks++;
    }
    let x = 1;
    // four pixels at a time where none of them differs from its neighbours to the left and above
    for (; x + 4 <= width; x += 4) {
      const here = v128.load(row + (<usize>x << 2));
      let same = i32x4.eq(here, v128.load(row + (<usize>(x - 1) << 2)));
      if (above) same = v128.and(same, i32x4.eq(here, v128.load(row + (<usize>x << 2) - (<usize>width << 2))));
      if (v128.all_true<i32>(same)) continue;
      for (let k = x; k < x + 4; k++) boundaryCracks += pixelCracks(row, width, cracks, v, k, above);
    }
    for (; x < width; x++) boundaryCracks += pixelCracks(row, width, cracks, v, x, above);
  }
  memory.copy(untraced, cracks, <usize>vertices);
  return boundaryCracks;
}

@inline
function orMask(masks: usize, v: i32, bit: u8): void {
  const at = masks + <usize>v;
  store<u8>(at, load<u8>(at) | bit);
}

/** The cracks above pixel x (when `above`) and left of it, in the masks of the vertices they join; how many there are. */
@inline
function pixelCracks(row: usize, width: i32, cracks: usize, v: i32, x: i32, above: bool): i32 {
  const here = load<i32>(row + (<usize>x << 2));
  let found = 0;
  if (above && load<i32>(row + (<usize>x << 2) - (<usize>width << 2)) !== here) {
    orMask(cracks, v + x, 1);
    orMask(cracks, v + x + 1, 4);
    found++;
  }
  if (load<i32>(row + (<usize>(x - 1) << 2)) !== here) {
    orMask(cracks, v + x, 2);
    orMask(cracks, v + x + width + 1, 8);
    found++;
  }
  return found;
}

/** Lists the junctions (vertices of three or more cracks) in scan order into `out`; returns how many. */
export function listJunctions(cracks: usize, vertices: i32, out: usize): i32 {
  let count = 0;
  let v = 0;
  while (v < vertices) {
    // most vertices lie inside a region: sixteen crack-free ones are passed at once
    if (v + 16 <= vertices && !v128.any_true(v128.load(cracks + <usize>v))) {
      v += 16;
      continue;
    }
    const end = v + 16 < vertices ? v + 16 : vertices;
    for (; v < end; v++) {
      if (popcnt<u32>(<u32>load<u8>(cracks + <usize>v)) >= 3) {
        store<i32>(out + (<usize>count << 2), v);
        count++;
      }
    }
  }
  return count;
}

/** The first vertex from `from` on whose eastward crack is untraced, or `vertices`. */
export function nextLoopStart(untraced: usize, from: i32, vertices: i32): i32 {
  const east = i8x16.splat(1);
  let v = from;
  for (; v + 16 <= vertices; v += 16) if (v128.any_true(v128.and(v128.load(untraced + <usize>v), east))) break;
  for (; v < vertices; v++) if ((load<u8>(untraced + <usize>v) & 1) !== 0) return v;
  return vertices;
}
