/**
 * The launch's figures without I/O (domain/stats.ts): the range a request asks for, and the
 * totals and ratios of the counts.
 */
import { describe, expect, it } from 'vitest';
import { type DayFigures, statsRange, statsTotals } from '../src/domain/stats.js';

const NOW = Date.parse('2026-03-01T23:59:59.999Z');

describe('the range of days', () => {
  it('is the last 30 UTC days, today included, when none is given', () => {
    const range = statsRange(undefined, undefined, NOW);
    expect(range.ok && range.value.days.length).toBe(30);
    expect(range.ok && [range.value.days[0], range.value.days[29]]).toEqual(['2026-01-31', '2026-03-01']);
    expect(range.ok && range.value.endMs).toBe(Date.parse('2026-03-02T00:00:00Z'));
  });

  it('takes from and to, both included, and the 30 days up to `to` without `from`', () => {
    expect(statsRange('2024-02-28', '2024-03-01', NOW)).toMatchObject({
      ok: true,
      value: {
        days: ['2024-02-28', '2024-02-29', '2024-03-01'],
        startMs: Date.parse('2024-02-28T00:00:00Z'),
      },
    });
    const upTo = statsRange(undefined, '2025-12-31', NOW);
    expect(upTo.ok && upTo.value.days[0]).toBe('2025-12-02');
    expect(statsRange('2026-03-01', '2026-03-01', NOW)).toMatchObject({
      ok: true,
      value: { days: ['2026-03-01'] },
    });
  });

  it('allows 366 days and refuses 367, naming the parameter', () => {
    expect(statsRange('2024-01-01', '2024-12-31', NOW)).toMatchObject({ ok: true });
    expect(statsRange('2023-12-31', '2024-12-31', NOW)).toEqual({
      ok: false,
      field: 'from',
      reason: 'The range is 367 days; at most 366 may be asked at once.',
    });
    expect(statsRange('0001-01-01', '9999-12-31', NOW)).toMatchObject({ ok: false, field: 'from' });
  });

  it('refuses a reversed range and dates that are not calendar days written YYYY-MM-DD', () => {
    expect(statsRange('2026-02-02', '2026-02-01', NOW)).toEqual({
      ok: false,
      field: 'from',
      reason: '`from` must not be after `to`.',
    });
    for (const [from, to, field] of [
      ['2026-02-30', undefined, 'from'],
      ['2026-2-1', undefined, 'from'],
      ['2026-02-01T00:00:00Z', undefined, 'from'],
      [undefined, 'yesterday', 'to'],
      [undefined, '2026-13-01', 'to'],
      [undefined, '', 'to'],
      ['x'.repeat(100_000), undefined, 'from'],
    ] as const)
      expect(statsRange(from, to, NOW)).toEqual({
        ok: false,
        field,
        reason: `\`${field}\` must be a date written YYYY-MM-DD.`,
      });
  });
});

const day = (date: string, views: number, signups: number, referred: number): DayFigures => ({
  date,
  views,
  signups,
  confirmed: 0,
  referred,
  admitted: 0,
});

describe('the totals', () => {
  it('sum the days and divide: conversion per view, referred share and k-factor per sign-up', () => {
    expect(statsTotals([day('2026-03-01', 200, 10, 2), day('2026-03-02', 50, 15, 3)], 6)).toEqual({
      views: 250,
      signups: 25,
      conversion: 0.1,
      referred_share: 0.2,
      k_factor: 0.24,
    });
  });

  it('are null where the divisor is 0', () => {
    expect(statsTotals([day('2026-03-01', 0, 0, 0)], 0)).toEqual({
      views: 0,
      signups: 0,
      conversion: null,
      referred_share: null,
      k_factor: null,
    });
    expect(statsTotals([day('2026-03-01', 0, 4, 1)], 1)).toMatchObject({ conversion: null, k_factor: 0.25 });
  });
});
