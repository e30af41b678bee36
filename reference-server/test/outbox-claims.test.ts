/**
 * What an outbox worker holds (app/outbox-claims.ts), without a database: claims ahead of its
 * slots, which attempts start when, and what a claim reads as taken.
 */
import { describe, expect, it } from 'vitest';
import { type Claim, type ClaimLimits, OutboxClaims } from '../src/app/outbox-claims.js';

const LIMITS: ClaimLimits = { perEndpoint: 2, total: 4, ahead: 3, leaseMs: 60_000, attemptMs: 15_000 };

/** `n` claims of one endpoint of one tenant, claimed at `at`. */
const claimsOf = (target: string, group: string, n: number, at = 0): Claim[] =>
  Array.from({ length: n }, (_, i) => ({ id: `${target}-${i}`, target, group, claimedAt: at }));

const ids = (claims: readonly Claim[]) => claims.map((c) => c.id);

describe('claims ahead of the slots', () => {
  it('starts at most perEndpoint at one endpoint, and the next of it as soon as one is done', () => {
    const claims = new OutboxClaims(LIMITS);
    const a = claimsOf('a', 't1', 5);
    claims.add(a);
    expect(ids(claims.next(0))).toEqual(['a-0', 'a-1']);
    expect(claims.next(0)).toEqual([]);
    claims.done(a[0] as Claim);
    expect(ids(claims.next(10))).toEqual(['a-2']);
    expect(claims.next(10)).toEqual([]);
  });

  it('counts a claim as held, at its endpoint and for its group, from its claim until its attempt is done', () => {
    const claims = new OutboxClaims(LIMITS);
    const a = claimsOf('a', 't1', 3);
    claims.add([...a, ...claimsOf('b', 't2', 1)]);
    expect(claims.heldByTarget()).toEqual({ a: 3, b: 1 });
    expect(Object.fromEntries(claims.heldByGroup())).toEqual({ t1: 3, t2: 1 });
    expect(claims.room()).toBe(3 * 4 - 4);
    claims.next(0);
    expect(claims.heldByTarget()).toEqual({ a: 3, b: 1 });
    claims.done(a[0] as Claim);
    expect(claims.heldByTarget()).toEqual({ a: 2, b: 1 });
    expect(claims.room()).toBe(3 * 4 - 3);
    expect(claims.perTarget()).toBe(6);
    expect(claims.claimSlots()).toBe(12);
  });

  it('starts at most total in all, sharing the slots among groups by the fair-share rule', () => {
    const claims = new OutboxClaims({ ...LIMITS, perEndpoint: 4, total: 6 });
    // One tenant's claims are older, but with two groups at work neither holds more than 6 / 3.
    claims.add([...claimsOf('a', 't1', 6, 0), ...claimsOf('b', 't2', 6, 5)]);
    const started = claims.next(10);
    expect(ids(started)).toEqual(['a-0', 'b-0', 'a-1', 'b-1']);
    expect(claims.next(10)).toEqual([]);
    claims.done(started[0] as Claim);
    expect(ids(claims.next(10))).toEqual(['a-2']);
  });

  it('drops a waiting claim whose lease would run out before its attempt could end, and starts the rest', () => {
    const claims = new OutboxClaims(LIMITS);
    claims.add([...claimsOf('old', 't1', 1, 0), ...claimsOf('new', 't1', 1, 40_000)]);
    // At 45,001 ms the first has 14,999 ms of its lease left: less than an attempt's 15 s.
    expect(ids(claims.next(45_001))).toEqual(['new-0']);
    // Dropped: no longer held, and never started later.
    expect(claims.heldByTarget()).toEqual({ new: 1 });
    expect(claims.takeWaiting()).toEqual([]);
  });

  it('gives up every waiting claim on shutdown, and keeps those under way', () => {
    const claims = new OutboxClaims(LIMITS);
    claims.add(claimsOf('a', 't1', 5));
    const start = claims.next(0);
    expect(ids(claims.takeWaiting())).toEqual(['a-2', 'a-3', 'a-4']);
    expect(claims.heldByTarget()).toEqual({ a: 2 });
    expect(claims.next(0)).toEqual([]);
    for (const c of start) claims.done(c);
    expect(claims.heldByTarget()).toEqual({});
    expect(claims.room()).toBe(12);
  });
});
