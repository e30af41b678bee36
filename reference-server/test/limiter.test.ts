/**
 * The throttle port (`Store.limiter`): its contract run on the in-memory adapter, alone and as
 * the SQLite store hands it out, and what only the in-memory adapter does (its cap).
 */
import { tempDir } from '@waitlistkit/testkit';
import { describe, expect, it } from 'vitest';
import { openStore } from '../src/container.js';
import { slidingWindow, tokenBucket } from '../src/domain/throttle.js';
import { MemoryLimiter, memoryLimiters } from '../src/store/memory-limiter.js';
import { limiterContract } from './limiter-contract.js';

limiterContract('in memory', async () => ({ limiter: memoryLimiters() }));

// The store tempDir() gives: SQLite's (in memory), or PostgreSQL's table in the server-pg project.
limiterContract('the store', async () => {
  const dir = tempDir();
  const store = await openStore(dir.db, { oneShot: true });
  return {
    limiter: store.limiter,
    close: async () => {
      await store.close();
      dir.cleanup();
    },
  };
});

describe('in-memory throttle state', () => {
  const limit = { capacity: 1, windowMs: 60_000 };

  it('forgets the least recently taken key past its cap, which only makes it lenient', async () => {
    const limiter = new MemoryLimiter(slidingWindow, 2);
    await limiter.take('a', 0, limit);
    await limiter.take('b', 0, limit);
    await limiter.peek('a'); // a peek does not refresh a key's place
    await limiter.take('a', 0, limit); // a take does: b is now the oldest
    await limiter.take('c', 0, limit);
    expect(limiter.size).toBe(2);
    expect(await limiter.peek('b')).toBeUndefined();
    expect(await limiter.peek('a')).toBeDefined();
    expect((await limiter.take('b', 0, limit)).allowed).toBe(true);
  });

  it('refuses to give one name two rules', () => {
    const limiter = memoryLimiters();
    limiter('key', tokenBucket);
    expect(() => limiter('key', slidingWindow)).toThrow(/another rule/);
  });
});
