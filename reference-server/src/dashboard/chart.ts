/**
 * Layout of the overview's charts, one slot per day: bars for counts (views and sign-ups on one
 * scale) and a line for a ratio (conversion). Numbers in, coordinates out, no I/O and no markup,
 * so the scaling is tested on its own and the page only draws what it is given. Coordinates are
 * in the SVG's own units (its viewBox); the browser scales the whole drawing to the column's width.
 */

export interface ChartBox {
  width: number;
  height: number;
  /** Room left of the bars for the value labels, below them for the day labels, and right of them
   * for half of the newest day's label, which is centred under the last bar. */
  left: number;
  right: number;
  bottom: number;
  top: number;
}

export const CHART_BOX: ChartBox = { width: 600, height: 220, left: 48, right: 16, bottom: 24, top: 10 };

export interface Bar {
  x: number;
  y: number;
  width: number;
  height: number;
  /** Whether the day's label is drawn under this bar (every few days, so the labels never overlap). */
  labelled: boolean;
}

export interface Tick {
  value: number;
  y: number;
}

export interface BarChart {
  /** The value at the top of the scale: a round number at or above the largest value. */
  max: number;
  bars: Bar[];
  ticks: Tick[];
  /** The baseline's y: where every bar starts; the plot's right edge, where the grid lines end. */
  baseline: number;
  right: number;
}

/** The smallest of 1, 2, 5 × 10^k at or above `n` (and at least 1): a scale people read at a glance. */
export function niceCeiling(n: number): number {
  if (!(n > 1)) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(n));
  for (const step of [1, 2, 5, 10]) if (step * magnitude >= n) return step * magnitude;
  return 10 * magnitude;
}

const round = (n: number) => Math.round(n * 100) / 100;

/** At most this many day labels under the chart, so they stay readable on a narrow screen. */
const MAX_LABELS = 6;

/** The plot's frame for `count` days: its baseline and the width each day's slot takes. */
function frame(count: number, box: ChartBox) {
  const plotWidth = box.width - box.left - box.right;
  const plotHeight = box.height - box.top - box.bottom;
  const labelEvery = Math.max(1, Math.ceil(count / MAX_LABELS));
  return {
    plotHeight,
    baseline: box.top + plotHeight,
    slot: count > 0 ? plotWidth / count : plotWidth,
    // The newest day is always labelled: it is the one people look for.
    labelled: (i: number) => (count - 1 - i) % labelEvery === 0,
  };
}

export interface BarOptions {
  /** The top of the scale, when bars share one with others (views and sign-ups); else from the values. */
  max?: number;
  /** The share of its day's slot a bar fills, centred in it. */
  share?: number;
}

export function barChart(
  values: readonly number[],
  box: ChartBox = CHART_BOX,
  options: BarOptions = {},
): BarChart {
  const max = options.max ?? niceCeiling(Math.max(0, ...values));
  const share = options.share ?? 0.7;
  const { plotHeight, baseline, slot, labelled } = frame(values.length, box);
  const bars = values.map((value, i) => {
    // A day with any count gets a visible sliver, however small next to the busiest day.
    const height = value > 0 ? Math.max(1, (value / max) * plotHeight) : 0;
    return {
      x: round(box.left + i * slot + (slot * (1 - share)) / 2),
      y: round(baseline - height),
      width: round(slot * share),
      height: round(height),
      labelled: labelled(i),
    };
  });
  // Counts are whole numbers: a halfway tick is shown only when it is one.
  const ticks = [0, max / 2, max]
    .filter((v) => Number.isInteger(v))
    .map((value) => ({ value, y: round(baseline - (value / max) * plotHeight) }));
  return { max, bars, ticks, baseline, right: box.width - box.right };
}

export interface Point {
  x: number;
  y: number;
}

export interface LineChart {
  /** The top of the scale in percent: 1, 2 or 5 × 10^k at or above the largest value. */
  maxPercent: number;
  /** Each day's point at the middle of its slot; null on a day without a value (no views). */
  points: (Point | null)[];
  /** SVG path data joining the points of consecutive days; a day without a value breaks the line. */
  path: string;
  /** Percent values; halfway too when it is not a whole number (2.5 %). */
  ticks: Tick[];
  labelled: boolean[];
  baseline: number;
  right: number;
}

/** A ratio per day (conversion) as a line on a scale of percent; null days are gaps, not zeros. */
export function lineChart(ratios: readonly (number | null)[], box: ChartBox = CHART_BOX): LineChart {
  const highest = Math.max(0, ...ratios.map((r) => (r === null ? 0 : r * 100)));
  const maxPercent = niceCeiling(highest);
  const { plotHeight, baseline, slot, labelled } = frame(ratios.length, box);
  const points = ratios.map((r, i) =>
    r === null
      ? null
      : {
          x: round(box.left + i * slot + slot / 2),
          y: round(baseline - ((r * 100) / maxPercent) * plotHeight),
        },
  );
  const path = points.flatMap((p, i) => (p ? [`${points[i - 1] ? 'L' : 'M'}${p.x} ${p.y}`] : [])).join(' ');
  const ticks = [0, maxPercent / 2, maxPercent].map((value) => ({
    value,
    y: round(baseline - (value / maxPercent) * plotHeight),
  }));
  return {
    maxPercent,
    points,
    path,
    ticks,
    labelled: ratios.map((_, i) => labelled(i)),
    baseline,
    right: box.width - box.right,
  };
}
