/**
 * The cleanup queue after erasures (app/erasure-cleanup.ts, domain/cleanup-schedule.ts), with
 * a scrub that answers as the test says and timers the test moves: when attempts run, which
 * erasures share one, the retries of an unfinished one, and what the log says. Over HTTP, on
 * both stores, erasure-cleanup.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Logger } from '../src/adapters/logger.js';
import { ErasureCleanup } from '../src/app/erasure-cleanup.js';
import { cleanupBeginsAt, LATE_AFTER_MS, MAX_RETRY_MS, retryWait } from '../src/domain/cleanup-schedule.js';

const clock = { now: () => Date.now(), nowMicros: () => Date.now() * 1000 };
const SPACING = 60_000;

interface Line {
  level: string;
  msg: string;
  fields: Record<string, unknown>;
}

/** A store whose scrub records its calls and answers from `answers` (true once they run out). */
function setUp(answers: (boolean | Error)[] = []) {
  const calls: { at: number; since: number }[] = [];
  const lines: Line[] = [];
  const log: Logger = {
    request: () => {},
    info: (msg, fields = {}) => lines.push({ level: 'info', msg, fields }),
    error: (msg, fields = {}) => lines.push({ level: 'error', msg, fields }),
  };
  const store = {
    scrubSpacingMs: SPACING,
    scrub: async (since: number) => {
      calls.push({ at: Date.now(), since });
      const answer = answers.shift() ?? true;
      if (answer instanceof Error) throw answer;
      return answer;
    },
  };
  return {
    calls,
    lines,
    msgs: () => lines.map((l) => l.msg),
    server: new ErasureCleanup(store, log, clock),
    oneShot: () => new ErasureCleanup(store, log, clock, true),
  };
}

beforeEach(() => {
  vi.useFakeTimers({ now: Date.UTC(2026, 0, 1) });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the cleanup schedule', () => {
  it('begins at once after a quiet spell, else when the spacing is over; retries double up to a bound', () => {
    expect(cleanupBeginsAt(undefined, 1_000, SPACING)).toBe(1_000);
    expect(cleanupBeginsAt(1_000, 2_000, SPACING)).toBe(61_000);
    expect(cleanupBeginsAt(1_000, 70_000, SPACING)).toBe(70_000);
    expect([1, 2, 3, 4].map(retryWait)).toEqual([50, 100, 200, 400]);
    expect(retryWait(8)).toBe(MAX_RETRY_MS);
    expect(retryWait(10_000)).toBe(MAX_RETRY_MS);
  });
});

describe('the cleanup queue', () => {
  it('answers an erasure before any cleanup runs, and runs one at once when none ran lately', async () => {
    const q = setUp();
    await q.server.erased();
    expect(q.calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(0);
    expect(q.calls).toEqual([{ at: Date.UTC(2026, 0, 1), since: Date.UTC(2026, 0, 1) }]);
    expect(q.lines).toEqual([
      {
        level: 'info',
        msg: 'erasure cleanup finished',
        fields: { erasures: 1, attempts: 1, took_ms: 0, after_ms: 0 },
      },
    ]);
  });

  it('lets the erasures of the spacing share one cleanup, covering the newest of them', async () => {
    const q = setUp();
    await q.server.erased();
    await vi.advanceTimersByTimeAsync(0);
    for (let i = 0; i < 5; i++) {
      await vi.advanceTimersByTimeAsync(1_000);
      await q.server.erased();
    }
    const newest = Date.now();
    await vi.advanceTimersByTimeAsync(SPACING - 5_000 - 1);
    expect(q.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(q.calls).toHaveLength(2);
    expect(q.calls[1]).toEqual({ at: Date.UTC(2026, 0, 1) + SPACING, since: newest });
    expect(q.lines[1]?.fields).toMatchObject({ erasures: 5, attempts: 1 });
    await vi.advanceTimersByTimeAsync(10 * SPACING);
    expect(q.calls).toHaveLength(2);
  });

  it('tries an unfinished cleanup again, waiting longer each time, says once that it is late, and when it finished', async () => {
    const q = setUp(Array.from({ length: 10 }, () => false));
    await q.server.erased();
    await vi.advanceTimersByTimeAsync(LATE_AFTER_MS - 1);
    expect(q.msgs()).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(q.msgs()).toEqual(['erasure cleanup is late, still waiting']);
    await vi.advanceTimersByTimeAsync(60_000);
    const begun = q.calls[0]?.at as number;
    const waits = q.calls.slice(1).map((c, i) => c.at - (q.calls[i]?.at as number));
    expect(waits).toEqual([50, 100, 200, 400, 800, 1_600, 3_200, 5_000, 5_000, 5_000]);
    expect(q.msgs()).toEqual(['erasure cleanup is late, still waiting', 'erasure cleanup finished late']);
    expect(q.lines[1]?.fields).toMatchObject({
      erasures: 1,
      attempts: 11,
      after_ms: (q.calls[10]?.at as number) - begun,
    });
  });

  it('logs a failing attempt once and tries again', async () => {
    const q = setUp([new Error('connection refused'), new Error('connection refused'), true]);
    await q.server.erased();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(q.lines.map((l) => [l.level, l.msg])).toEqual([
      ['error', 'erasure cleanup failed, trying again'],
      ['info', 'erasure cleanup finished'],
    ]);
    expect(q.calls).toHaveLength(3);
  });

  it('waits for the cleanup inline, for a command about to exit', async () => {
    const q = setUp([false, false]);
    const inline = q.oneShot();
    let done = false;
    const erased = inline.erased().then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(100);
    expect([done, q.calls.length]).toEqual([false, 2]);
    await vi.advanceTimersByTimeAsync(100);
    await erased;
    expect([done, q.calls.length]).toEqual([true, 3]);
  });

  it('makes one last attempt at shutdown for erasures still waiting for the spacing', async () => {
    const q = setUp();
    await q.server.erased();
    await vi.advanceTimersByTimeAsync(0);
    await q.server.erased();
    await q.server.stop();
    expect(q.calls).toHaveLength(2);
    expect(q.lines[1]?.fields).toMatchObject({ erasures: 1 });
    await q.server.erased();
    await vi.advanceTimersByTimeAsync(10 * SPACING);
    expect(q.calls).toHaveLength(2);
  });

  it('says at shutdown what it could not finish, after one more attempt', async () => {
    const q = setUp([false, false, false]);
    await q.server.erased();
    await vi.advanceTimersByTimeAsync(0);
    await q.server.erased();
    await q.server.stop();
    expect(q.calls).toHaveLength(2);
    expect(q.lines).toEqual([
      { level: 'info', msg: 'erasure cleanup unfinished at shutdown', fields: { erasures: 2 } },
    ]);
    await vi.advanceTimersByTimeAsync(LATE_AFTER_MS + MAX_RETRY_MS);
    expect(q.calls).toHaveLength(2);
    expect(q.lines).toHaveLength(1);
  });
});
