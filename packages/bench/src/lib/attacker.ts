/**
 * The attacker of item 10: one client IP (loopback) signing up distinct addresses on one public
 * waitlist as fast as it can for a fixed time, through the real protocol of docs/gates.md#adaptive-difficulty:
 * `POST …/gates` for a Challenge token and a Proof of Work nonce, wait out `min_age_ms`, solve
 * with the widget's own WebAssembly kernel on persistent worker threads (one nonce per thread,
 * threads/attacker-solver.ts), then `POST …/subscribers` with both. A 428 on the submit is obeyed
 * (new token or nonce), a 429 makes it wait its `Retry-After`.
 *
 * It also keeps its own copy of the per-IP throttle (docs/protocol.md#throttles-and-budgets, the server's sliding window of
 * one-second slots, each counted for 61 s at most), so it spends its request budget without being
 * refused. Two strategies:
 *
 * - `pipeline`: at most `held` gate sets in hand (one per solving thread plus one ahead); a solved
 *   one is submitted as soon as its token is old enough, and the next gates are fetched while the
 *   others are being solved.
 * - `hoard`: fetches gate sets first, as long as every one held can still be submitted within the
 *   request budget left before the deadline, and submits afterwards. Under adaptive difficulty a
 *   nonce is priced when it is issued, by the sign-ups accepted before that moment, so every nonce
 *   fetched before the first sign-up costs the base difficulty.
 *
 * Everything stops by itself: no request starts after the deadline, each request has a timeout,
 * a guard rejects shortly after the deadline, and the threads are terminated in any case.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import type { ChallengeRequired, ErrorBody, GatesResponse } from '@waitlistkit/protocol';
import { distFile } from './paths.js';

const REQUEST_TIMEOUT_MS = 15_000;
/** After the deadline, the longest a run may take to wind down before it is abandoned as failed. */
const GUARD_MS = 2 * REQUEST_TIMEOUT_MS;
/** The server's per-IP window: 60 s, counted in 1 s slots until the slot's last moment has left. */
const SLOT_MS = 1000;
const WINDOW_MS = 60_000;
const PERIOD_MS = WINDOW_MS + SLOT_MS;
/** Margin on the Challenge's minimum age: the token's clock started before we got it, this is extra. */
const AGE_MARGIN_MS = 5;

/** A nonce for a solving thread, and its answer. */
export interface SolveRequest {
  id: number;
  nonce: string;
  difficulty: number;
}
export type SolveReply =
  | { id: number; solution: number; ms: number; wasm: boolean }
  | { id: number; error: string };

interface Job extends SolveRequest {
  started: number;
  resolve(result: { solution: number; ms: number }): void;
  reject(error: unknown): void;
}

interface SolverStats {
  /** Busy thread-milliseconds so far (solves in progress up to now). */
  busyMs: number;
  /** Of the finished solves: the tries they prove and the milliseconds they took on their thread. */
  tries: number;
  solveMs: number;
  /** Whether every solve ran the WebAssembly kernel. */
  wasm: boolean;
}

/** Persistent solving threads; `solve` queues a nonce and resolves with its solution. */
function solverPool(size: number) {
  const workers: Worker[] = [];
  const idle: Worker[] = [];
  const queue: Job[] = [];
  const running = new Map<number, Job>();
  let nextId = 0;
  let busyMs = 0;
  let solveMs = 0;
  let tries = 0;
  let wasm = true;
  let failure: unknown;
  let terminated = false;

  const dispatch = () => {
    while (idle.length > 0 && queue.length > 0 && !terminated) {
      const worker = idle.shift() as Worker;
      const job = queue.shift() as Job;
      job.started = performance.now();
      running.set(job.id, job);
      const request: SolveRequest = { id: job.id, nonce: job.nonce, difficulty: job.difficulty };
      worker.postMessage(request);
    }
  };
  const failAll = (error: unknown) => {
    failure ??= error;
    for (const job of [...running.values(), ...queue]) job.reject(error);
    running.clear();
    queue.length = 0;
  };

  for (let i = 0; i < size; i++) {
    const worker = new Worker(distFile('attacker-solver'));
    worker.on('message', (m: SolveReply) => {
      const job = running.get(m.id);
      if (!job) return;
      running.delete(m.id);
      busyMs += performance.now() - job.started;
      idle.push(worker);
      if ('error' in m) {
        job.reject(new Error(`solver thread: ${m.error}`));
      } else {
        solveMs += m.ms;
        tries += m.solution + 1; // one engine counting up from 0: the answer proves the tries
        wasm &&= m.wasm;
        job.resolve({ solution: m.solution, ms: m.ms });
      }
      dispatch();
    });
    worker.on('error', failAll);
    worker.on('exit', (code) => {
      if (!terminated) failAll(new Error(`a solver thread exited (${code})`));
    });
    workers.push(worker);
    idle.push(worker);
  }

  const stats = (): SolverStats => {
    const now = performance.now();
    let inFlight = 0;
    for (const job of running.values()) inFlight += now - job.started;
    return { busyMs: busyMs + inFlight, tries, solveMs, wasm };
  };

  return {
    solve(nonce: string, difficulty: number) {
      return new Promise<{ solution: number; ms: number }>((resolve, reject) => {
        if (failure || terminated) return reject(failure ?? new Error('the solver pool is stopped'));
        queue.push({ id: nextId++, nonce, difficulty, started: 0, resolve, reject });
        dispatch();
      });
    },
    stats,
    async terminate() {
      if (terminated) return;
      busyMs = stats().busyMs;
      terminated = true;
      const stopped = new Error('the solver pool is stopped');
      for (const job of [...running.values(), ...queue]) job.reject(stopped);
      running.clear();
      queue.length = 0;
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}

/** When a request answered at `at` (ms since the epoch) stops counting in the server's window. */
const expiryOf = (at: number) => (Math.floor(at / SLOT_MS) + 1) * SLOT_MS + WINDOW_MS;

/** A gate set in hand: its Challenge token, its nonce, and once solved the solution. */
interface GateSet {
  token: string;
  /** When the token is old enough to send. */
  readyAt: number;
  nonce: string;
  difficulty: number;
  /** Sign-ups accepted from this address before the nonce was issued. */
  a: number;
  solved?: { solution: number; ms: number };
}

/** A nonce the server issued: its difficulty, and the one the server's rule gives it. */
export interface Issued {
  difficulty: number;
  a: number;
  expected: number;
}

export interface AttackOptions {
  baseUrl: string;
  waitlistId: string;
  origin: string;
  seconds: number;
  strategy: 'hoard' | 'pipeline';
  /** Gate sets held at most. */
  held?: number;
  threads: number;
  /** The waitlist's per-IP budget, which a determined attacker learns from its first 429. */
  ipLimit: number;
  /** In every email, so runs never share one. */
  tag: string;
  /**
   * The difficulty the server should give a nonce issued after `a` accepted sign-ups from this IP
   * and `issued` nonces in the last minute (a mismatch is recorded).
   */
  expectDifficulty(a: number, issued: number): number;
}

export interface AttackResult {
  seconds: number;
  /** The sign-ups accepted, each with its nonce's difficulty and the sign-ups accepted before it was issued. */
  accepted: { difficulty: number; a: number }[];
  issued: Issued[];
  /** Refusals by `<status> <code or gate>`. */
  refusals: Record<string, number>;
  gateFetches: number;
  submits: number;
  /** Gate sets still in hand at the deadline. */
  unsubmitted: number;
  requestsCounted: number;
  /** Requests the per-IP throttle allows in the run's time. */
  requestBudget: number;
  /** CPU of the attacker's process, threads included. */
  cpuSeconds: number;
  /** The solving threads' busy time, the tries their finished solves prove, and the time those took. */
  busyMs: number;
  tries: number;
  solveMs: number;
  wasm: boolean;
  threads: number;
}

type Answer = { status: number; json: unknown; at: number; text: string };

/** The code of an error body, or the gate of a 428; '?' for anything else. */
function refusalKey(r: Answer): string {
  const body = (r.json ?? {}) as Partial<ErrorBody & ChallengeRequired>;
  return `${r.status} ${body.error?.code ?? body.gate ?? '?'}`;
}

/** Runs the attack for `seconds`; resolves with what happened. */
export async function attack({
  baseUrl,
  waitlistId,
  origin,
  seconds,
  strategy,
  held = Number.POSITIVE_INFINITY,
  threads,
  ipLimit,
  tag,
  expectDifficulty,
}: AttackOptions): Promise<AttackResult> {
  const pool = solverPool(threads);
  const path = (what: string) => `${baseUrl}/v1/public/waitlists/${waitlistId}/${what}`;
  const headers = { 'content-type': 'application/json', origin };
  const counted: number[] = []; // expiry of every request the server counted, in order
  const issuedAt: number[] = []; // when each nonce was issued (for the surge count)
  const pending: GateSet[] = []; // gate sets in hand
  const accepted: AttackResult['accepted'] = [];
  const issued: Issued[] = [];
  const refusals: Record<string, number> = {};
  let blockedUntil = 0;
  let emails = 0;
  let submits = 0;
  let gateFetches = 0;
  let failure: unknown;
  let stopped = false;
  let notify = () => {};

  const refuse = (key: string) => {
    refusals[key] = (refusals[key] ?? 0) + 1;
  };
  const live = (now: number) => counted.filter((e) => e > now);

  /** When the next request may go: now, or when a counted one leaves the window (or Retry-After). */
  const nextSlot = (now: number) => {
    const inWindow = live(now);
    const at = inWindow.length < ipLimit ? now : (inWindow[inWindow.length - ipLimit] ?? now);
    return Math.max(at, blockedUntil);
  };
  /** Requests the throttle will still let through before `deadline`, sending at every chance. */
  const slotsLeft = (now: number, deadline: number) => {
    const inWindow = live(now);
    const chain = (from: number) => (from < deadline ? Math.ceil((deadline - from) / PERIOD_MS) : 0);
    let n = (ipLimit - inWindow.length) * chain(Math.max(now, blockedUntil));
    for (const e of inWindow) n += chain(e);
    return n;
  };

  const post = async (what: string, body: unknown): Promise<Answer> => {
    const res = await fetch(path(what), {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const at = Date.now();
    const text = await res.text();
    if (res.status !== 429) counted.push(expiryOf(at));
    else {
      const retryAfter = Number(res.headers.get('retry-after'));
      if (!Number.isInteger(retryAfter) || retryAfter < 1)
        throw new Error(`429 without a Retry-After: ${text}`);
      blockedUntil = Math.max(blockedUntil, at + retryAfter * 1000);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, json, at, text };
  };

  const solve = (item: GateSet) => {
    const nonce = item.nonce;
    item.solved = undefined;
    pool.solve(item.nonce, item.difficulty).then(
      (result) => {
        if (item.nonce === nonce) item.solved = result;
        notify();
      },
      (error: unknown) => {
        if (!stopped) failure ??= error;
        notify();
      },
    );
  };

  /** A nonce just issued to us: check its price against the pure rule, remember it. */
  const issue = (item: GateSet, at: number) => {
    issuedAt.push(at);
    const lastMinute = issuedAt.filter((t) => expiryOf(t) > at).length - 1;
    const expected = expectDifficulty(item.a, lastMinute);
    issued.push({ difficulty: item.difficulty, a: item.a, expected });
  };

  const fetchGates = async () => {
    gateFetches++;
    const a = accepted.length;
    const r = await post('gates', {});
    if (r.status !== 200) return refuse(refusalKey(r));
    const { challenge, pow } = (r.json ?? {}) as GatesResponse;
    if (!challenge?.token || !pow?.nonce) throw new Error(`gates without both gates: ${r.text}`);
    const item: GateSet = {
      token: challenge.token,
      readyAt: r.at + challenge.min_age_ms + AGE_MARGIN_MS,
      nonce: pow.nonce,
      difficulty: pow.difficulty,
      a,
    };
    issue(item, r.at);
    pending.push(item);
    solve(item);
  };

  const submit = async (item: GateSet, solution: number) => {
    submits++;
    const a = accepted.length;
    const r = await post('subscribers', {
      email: `bot${emails++}.${tag}@example.com`,
      challenge_token: item.token,
      pow: { nonce: item.nonce, solution },
    });
    if (r.status === 202) {
      pending.splice(pending.indexOf(item), 1);
      accepted.push({ difficulty: item.difficulty, a: item.a });
      return;
    }
    refuse(refusalKey(r));
    const gate = r.status === 428 ? (r.json as ChallengeRequired) : undefined;
    if (gate?.gate === 'challenge') {
      item.token = gate.challenge.token;
      item.readyAt = r.at + gate.challenge.min_age_ms + AGE_MARGIN_MS;
    } else if (gate?.gate === 'pow') {
      Object.assign(item, { nonce: gate.pow.nonce, difficulty: gate.pow.difficulty, a });
      issue(item, r.at);
      solve(item);
    } else if (r.status !== 429) {
      pending.splice(pending.indexOf(item), 1);
    }
  };

  /** Until the next solve, the next wake-up, or `ms`. */
  const wait = (ms: number) =>
    Promise.race([
      new Promise<void>((resolve) => {
        notify = resolve;
      }),
      sleep(Math.max(0, ms)),
    ]);

  // Start the threads and compile what they run before the clock starts.
  await Promise.all(Array.from({ length: threads }, (_, i) => pool.solve(`warm-up-${i}`, 4)));
  const warm = pool.stats();
  const cpu0 = process.cpuUsage();
  const t0 = Date.now();
  const deadline = t0 + seconds * 1000;

  const loop = async () => {
    while (!failure) {
      const now = Date.now();
      if (now >= deadline) break;
      const ready = pending.find((p) => p.solved && p.readyAt <= now);
      const canFetch = pending.length < held && pending.length + 1 <= slotsLeft(now, deadline) - 1;
      const action =
        strategy === 'hoard'
          ? canFetch
            ? 'gates'
            : ready && 'submit'
          : ready
            ? 'submit'
            : canFetch && 'gates';
      if (!action) {
        // Nothing to send: wait for a solve, a token to come of age, or the deadline.
        const ages = pending.filter((p) => p.solved && p.readyAt > now).map((p) => p.readyAt);
        await wait(Math.min(deadline, ...ages) - now);
        continue;
      }
      const slot = nextSlot(now);
      if (slot > now) {
        // Something to send, but the throttle would refuse it: wait for the window to move.
        await wait(Math.min(deadline, slot) - now);
        continue;
      }
      if (action === 'gates') await fetchGates();
      else if (ready?.solved) await submit(ready, ready.solved.solution);
    }
  };

  let guard: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      loop(),
      new Promise((_, reject) => {
        guard = setTimeout(
          () => reject(new Error(`the attacker did not stop within ${GUARD_MS} ms of its deadline`)),
          seconds * 1000 + GUARD_MS,
        );
      }),
    ]);
  } finally {
    clearTimeout(guard);
    stopped = true;
    notify();
    await pool.terminate();
  }
  const elapsedMs = Date.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  if (failure) throw failure;
  const solved = pool.stats();
  return {
    seconds: elapsedMs / 1000,
    accepted,
    issued,
    refusals,
    gateFetches,
    submits,
    unsubmitted: pending.length,
    requestsCounted: counted.length,
    requestBudget: ipLimit * Math.ceil((seconds * 1000) / PERIOD_MS),
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    busyMs: solved.busyMs - warm.busyMs,
    tries: solved.tries - warm.tries,
    solveMs: solved.solveMs - warm.solveMs,
    wasm: solved.wasm,
    threads,
  };
}
