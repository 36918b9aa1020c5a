/**
 * Luma by ITU-R BT.601 weights, the one brightness every stage uses (paper vs ink, gradient fits, the
 * classifier's features, centerline stroke colour), so a threshold set in one reads the same in another.
 */
export function luma601(r: number, g: number, b: number): number {
  return 0.299 * r + 0.587 * g + 0.114 * b;
}
