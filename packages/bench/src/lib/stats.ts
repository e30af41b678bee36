/** Small statistics and formatting helpers shared by the benchmarks. */

/** Linear-interpolated percentile (p in 0..100) of a list of numbers; NaN when empty. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  const lo = sorted[Math.floor(rank)] as number;
  const hi = sorted[Math.ceil(rank)] as number;
  return lo + (hi - lo) * (rank - Math.floor(rank));
}

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/**
 * The median of the per-round ratios `values[i] ÷ baselines[i]`: each round's pair shares the
 * machine's state of the moment, which the ratio of the two medians would not.
 */
export function medianRatio(values: readonly number[], baselines: readonly number[]): number {
  return median(values.map((x, i) => x / (baselines[i] ?? Number.NaN)));
}

/** Thousands separators, no decimals: 12345.6 → "12,346". */
export function fmtInt(n: number): string {
  return Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '–';
}

/** Milliseconds with a sensible number of decimals. */
export function fmtMs(ms: number): string {
  if (!Number.isFinite(ms)) return '–';
  if (ms >= 100) return `${ms.toFixed(0)} ms`;
  if (ms >= 10) return `${ms.toFixed(1)} ms`;
  return `${ms.toFixed(2)} ms`;
}

/** Microseconds for per-statement timings. */
export function fmtUs(us: number): string {
  if (!Number.isFinite(us)) return '–';
  if (us >= 10_000) return fmtMs(us / 1000);
  if (us >= 100) return `${us.toFixed(0)} µs`;
  return `${us.toFixed(1)} µs`;
}

export function fmtRatio(r: number): string {
  return Number.isFinite(r) ? `${r >= 10 ? r.toFixed(1) : r.toFixed(2)}×` : '–';
}

export function fmtPct(fraction: number): string {
  return Number.isFinite(fraction) ? `${(fraction * 100).toFixed(1)} %` : '–';
}

/** Hashes per second in millions, as items 1, 10 and 11 show them. */
export function fmtMhs(rate: number): string {
  return `${(rate / 1e6).toFixed(2)} MH/s`;
}

/** A met/missed cell. */
export function metCell(met: boolean): string {
  return met ? 'yes' : 'NO';
}
