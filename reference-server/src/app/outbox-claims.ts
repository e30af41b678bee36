/**
 * The deliveries one outbox worker holds (docs/webhooks.md#the-outbox): claimed in the database,
 * under way, or waiting here for a slot. The worker claims ahead of its slots, so that an attempt
 * that ends hands its slot to its endpoint's next delivery at once, not after the write that
 * records it and claims another: that write waits its turn at the database behind the sign-ups,
 * several milliseconds under load, and an endpoint that answers in one was left idle meanwhile.
 *
 * What starts keeps the slots' rules: at most `perEndpoint` attempts under way at one destination
 * (an endpoint, or the mail), at most `total` in all, shared among groups (a tenant, or the mail)
 * by domain/fair-share.ts. A waiting claim whose lease would run out before its attempt could end
 * is dropped, not attempted: another claim takes it once the lease is over.
 *
 * State only, no I/O: the worker (outbox.ts) reads it to claim, and asks it what to start.
 */
import { shareSlots } from '../domain/fair-share.js';

/** A claimed delivery, with where it goes, whose share it counts against, and when it was claimed. */
export interface Claim {
  id: string;
  /** An endpoint id, or `mail`. */
  target: string;
  /** A tenant, or `mail`. */
  group: string;
  claimedAt: number;
}

export interface ClaimLimits {
  /** Attempts under way at one destination. */
  perEndpoint: number;
  /** Attempts under way in all. */
  total: number;
  /** Claims held (under way or waiting) per slot: the depth of the claim ahead. */
  ahead: number;
  leaseMs: number;
  /** The longest an attempt may take: a claim starts only with this much of its lease left. */
  attemptMs: number;
}

/** Adds `by` to a count of a map, forgetting it at zero. */
function count(counts: Map<string, number>, key: string, by: number): void {
  const n = (counts.get(key) ?? 0) + by;
  if (n === 0) counts.delete(key);
  else counts.set(key, n);
}

export class OutboxClaims<C extends Claim> {
  /** Waiting claims by destination, oldest claim first. */
  private readonly waiting = new Map<string, C[]>();
  private readonly runningAt = new Map<string, number>();
  private readonly runningOf = new Map<string, number>();
  private readonly heldAt = new Map<string, number>();
  private readonly heldOf = new Map<string, number>();
  private held = 0;

  constructor(readonly limits: ClaimLimits) {}

  /** Claims held at each destination: what a new claim counts as taken there. */
  heldByTarget(): Record<string, number> {
    return Object.fromEntries(this.heldAt);
  }

  /** Claims held by each group: what the claims' share of the slots counts. */
  heldByGroup(): ReadonlyMap<string, number> {
    return this.heldOf;
  }

  /** How many more deliveries may be claimed, in all. */
  room(): number {
    return this.limits.ahead * this.limits.total - this.held;
  }

  /** The largest claim one destination may hold. */
  perTarget(): number {
    return this.limits.ahead * this.limits.perEndpoint;
  }

  /** The largest share of the claims, for fair-share's ceiling over them. */
  claimSlots(): number {
    return this.limits.ahead * this.limits.total;
  }

  add(claims: readonly C[]): void {
    for (const c of claims) {
      const queue = this.waiting.get(c.target);
      if (queue) queue.push(c);
      else this.waiting.set(c.target, [c]);
      count(this.heldAt, c.target, 1);
      count(this.heldOf, c.group, 1);
      this.held++;
    }
  }

  /**
   * The waiting claims to attempt now, marked under way. Those whose lease is too short for an
   * attempt leave the queues too, unattempted.
   */
  next(now: number): C[] {
    const dropped: C[] = [];
    const candidates: { id: string; group: string; claim: C }[] = [];
    const fits = (c: C) => now - c.claimedAt + this.limits.attemptMs <= this.limits.leaseMs;
    for (const [target, queue] of this.waiting) {
      const usable = queue.filter(fits);
      dropped.push(...queue.filter((c) => !fits(c)));
      this.waiting.set(target, usable);
      const room = this.limits.perEndpoint - (this.runningAt.get(target) ?? 0);
      for (const claim of usable.slice(0, Math.max(0, room)))
        candidates.push({ id: claim.id, group: claim.group, claim });
    }
    for (const c of dropped) this.release(c);
    // Oldest claim first, across destinations, as fair-share expects its queue.
    candidates.sort((a, b) => a.claim.claimedAt - b.claim.claimedAt);
    const byId = new Map(candidates.map((c) => [c.id, c.claim]));
    const start = shareSlots(candidates, this.runningOf, this.limits.total).flatMap(
      (id) => byId.get(id) ?? [],
    );
    for (const c of start) {
      const queue = this.waiting.get(c.target) ?? [];
      queue.splice(queue.indexOf(c), 1);
      count(this.runningAt, c.target, 1);
      count(this.runningOf, c.group, 1);
    }
    for (const [target, queue] of this.waiting) if (queue.length === 0) this.waiting.delete(target);
    return start;
  }

  /** An attempt ended: its slot and its claim are free. */
  done(c: C): void {
    count(this.runningAt, c.target, -1);
    count(this.runningOf, c.group, -1);
    this.release(c);
  }

  /** Every waiting claim, removed: on shutdown their leases are given back. */
  takeWaiting(): C[] {
    const all = [...this.waiting.values()].flat();
    this.waiting.clear();
    for (const c of all) this.release(c);
    return all;
  }

  private release(c: C): void {
    count(this.heldAt, c.target, -1);
    count(this.heldOf, c.group, -1);
    this.held--;
  }
}
