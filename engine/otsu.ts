/**
 * Otsu's method on a 256-level histogram: the split of levels into a dark class 0..t and a light
 * class t+1..255 whose class means lie furthest apart, weighted by the class sizes. The classifier
 * (its `otsu_separation` feature, which the model was trained on) and the line-art ink threshold
 * both pick from these scores; they differ only in how they choose among equal ones.
 */

/**
 * Between-class scores wB·wF·(mB − mF)² for every split t (entry t: levels 0..t against the rest),
 * where wB, wF are the class sizes and mB, mF their mean levels; -1 where a class is empty.
 */
export function otsuSplitScores(hist: ArrayLike<number>, total: number): Float64Array {
  let sumAll = 0;
  for (let i = 0; i < 256; i++) sumAll += i * hist[i];
  const scores = new Float64Array(256).fill(-1);
  let wB = 0,
    sumB = 0;
  for (let t = 0; t < 256; t++) {
    wB += hist[t];
    sumB += t * hist[t];
    const wF = total - wB;
    if (wB === 0 || wF === 0) continue;
    const mB = sumB / wB,
      mF = (sumAll - sumB) / wF;
    scores[t] = wB * wF * (mB - mF) * (mB - mF);
  }
  return scores;
}
