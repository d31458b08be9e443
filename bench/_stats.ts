/** Statistics the benches share. */

/** The median of `values` (the mean of the middle two for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Rounds for the JSON line. */
export function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

/** One table row: the first cell left-aligned, the rest right-aligned. */
export function row(cells: (string | number)[], widths: number[]): string {
  return cells.map((cell, i) => {
    const text = String(cell);
    return i === 0 ? text.padEnd(widths[i]) : text.padStart(widths[i]);
  }).join("  ");
}
