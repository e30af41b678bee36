/** The overview's pure parts, without I/O: UTC day buckets and the bar chart's scaling. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { barChart, CHART_BOX, niceCeiling } from '../src/dashboard/chart.js';
import { dayCounts, lastDays } from '../src/domain/days.js';

const ms = (iso: string) => Date.parse(iso);

describe('day buckets', () => {
  it('ends with the UTC day of now and starts count - 1 days before, at UTC midnights', () => {
    const range = lastDays(ms('2026-03-15T23:59:59.999Z'), 3);
    expect(range.days).toEqual(['2026-03-13', '2026-03-14', '2026-03-15']);
    expect(range.bounds).toEqual(
      ['2026-03-13', '2026-03-14', '2026-03-15', '2026-03-16'].map((d) => ms(`${d}T00:00:00Z`) * 1000),
    );
  });

  it('puts midnight itself in the day it starts', () => {
    expect(lastDays(ms('2026-03-16T00:00:00Z'), 1).days).toEqual(['2026-03-16']);
    expect(lastDays(ms('2026-03-15T23:59:59.999Z'), 1).days).toEqual(['2026-03-15']);
  });

  it('crosses month, year and leap-day boundaries, and ignores daylight saving', () => {
    expect(lastDays(ms('2028-03-01T08:00:00Z'), 3).days).toEqual(['2028-02-28', '2028-02-29', '2028-03-01']);
    expect(lastDays(ms('2027-01-01T00:30:00Z'), 2).days).toEqual(['2026-12-31', '2027-01-01']);
    // Europe's clocks go forward on 2026-03-29: a UTC day is still 24 hours.
    const dst = lastDays(ms('2026-03-30T12:00:00Z'), 2).bounds;
    expect((dst[1] as number) - (dst[0] as number)).toBe(86_400_000_000);
  });

  it('always gives count days of 24 hours each, the last one holding now', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4_102_444_800_000 }),
        fc.integer({ min: 1, max: 400 }),
        (now, count) => {
          const { days, bounds } = lastDays(now, count);
          expect(days).toHaveLength(count);
          expect(bounds).toHaveLength(count + 1);
          for (let i = 0; i < count; i++)
            expect((bounds[i + 1] as number) - (bounds[i] as number)).toBe(86_400_000_000);
          expect(bounds.at(-2) as number).toBeLessThanOrEqual(now * 1000);
          expect(bounds.at(-1) as number).toBeGreaterThan(now * 1000);
          expect(days.at(-1)).toBe(new Date(now).toISOString().slice(0, 10));
        },
      ),
    );
  });

  it('refuses a count that is not a positive whole number', () => {
    expect(() => lastDays(0, 0)).toThrow(RangeError);
    expect(() => lastDays(0, 1.5)).toThrow(RangeError);
  });

  it('pairs days with counts, a missing count being zero', () => {
    const range = lastDays(ms('2026-03-15T10:00:00Z'), 3);
    expect(dayCounts(range, [4, 0])).toEqual([
      { day: '2026-03-13', count: 4 },
      { day: '2026-03-14', count: 0 },
      { day: '2026-03-15', count: 0 },
    ]);
  });
});

describe('bar chart scaling', () => {
  it('rounds the top of the scale up to 1, 2 or 5 times a power of ten', () => {
    expect([0, 0.5, 1, 2, 3, 5, 6, 10, 11, 99, 101, 4999, 5001].map(niceCeiling)).toEqual([
      1, 1, 1, 2, 5, 5, 10, 10, 20, 100, 200, 5000, 10000,
    ]);
  });

  it('draws bars in proportion to their values, from one baseline, inside the box', () => {
    const chart = barChart([0, 5, 10, 2]);
    const plot = CHART_BOX.height - CHART_BOX.top - CHART_BOX.bottom;
    expect(chart.max).toBe(10);
    expect(chart.baseline).toBe(CHART_BOX.top + plot);
    expect(chart.right).toBe(CHART_BOX.width - CHART_BOX.right);
    expect(chart.bars.map((b) => b.height)).toEqual([0, plot / 2, plot, plot / 5]);
    for (const bar of chart.bars) {
      expect(bar.y + bar.height).toBeCloseTo(chart.baseline, 5);
      expect(bar.x).toBeGreaterThanOrEqual(CHART_BOX.left);
      expect(bar.x + bar.width).toBeLessThanOrEqual(chart.right);
      expect(bar.y).toBeGreaterThanOrEqual(CHART_BOX.top);
    }
    // Left to right in order, without overlapping.
    for (let i = 1; i < chart.bars.length; i++) {
      const [a, b] = [chart.bars[i - 1], chart.bars[i]] as [(typeof chart.bars)[0], (typeof chart.bars)[0]];
      expect(b.x).toBeGreaterThanOrEqual(a.x + a.width);
    }
  });

  it('keeps a day with one sign-up visible next to a very busy one', () => {
    const [small] = barChart([1, 100_000]).bars;
    expect(small?.height).toBeGreaterThanOrEqual(1);
  });

  it('shows an empty month as flat bars on a scale of 0 to 1', () => {
    const chart = barChart(Array(30).fill(0));
    expect(chart.max).toBe(1);
    expect(chart.bars.every((b) => b.height === 0)).toBe(true);
    expect(chart.ticks.map((t) => t.value)).toEqual([0, 1]);
  });

  it('labels whole-number ticks only, the top one at the top of the plot', () => {
    const chart = barChart([7]);
    expect(chart.ticks).toEqual([
      { value: 0, y: chart.baseline },
      { value: 5, y: (chart.baseline + CHART_BOX.top) / 2 },
      { value: 10, y: CHART_BOX.top },
    ]);
  });

  it('labels at most six days, always the newest', () => {
    const chart = barChart(Array(30).fill(1));
    const labelled = chart.bars.flatMap((b, i) => (b.labelled ? [i] : []));
    expect(labelled.length).toBeLessThanOrEqual(6);
    expect(labelled.at(-1)).toBe(29);
    expect(barChart([1, 2, 3]).bars.every((b) => b.labelled)).toBe(true);
  });
});
