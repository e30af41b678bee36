/**
 * Operator passwords, hashed with scrypt (memory-hard, in Node's crypto: no dependency) at
 * OWASP's parameters. Stored as `scrypt$N$r$p$salt$hash`, so hashes made at an older cost still
 * verify and are replaced at the next sign-in (`needsRehash`).
 *
 * Each derivation takes 128 MiB and about a third of a second on one of libuv's four pool
 * threads, the same threads the sqlite3 driver runs every query on. Unbounded, a handful of
 * concurrent sign-ins would stall every request of the server; so derivations run one at a time,
 * a few more may wait, and past that `HashingBusy` is thrown at once instead of queueing.
 */
import { randomBytes, type ScryptOptions, scrypt } from 'node:crypto';
import { BASE62_ALPHABET, randomString } from '@waitlistkit/protocol';
import { constantTimeEqual } from '../domain/crypto.js';

export const SCRYPT_COST = { N: 2 ** 17, r: 8, p: 1 };
const KEY_LENGTH = 32;
// N * r * 128 bytes = 128 MiB per hash; Node's default ceiling is 32 MiB, so raise it.
const MAX_MEMORY = 256 * 1024 * 1024;

const MAX_RUNNING = 1;
const MAX_WAITING = 8;

export class HashingBusy extends Error {
  constructor() {
    super('Too many password checks are under way; try again in a few seconds.');
    this.name = 'HashingBusy';
  }
}

/**
 * A gate for scarce work: at most `maxRunning` tasks at once, at most `maxWaiting` more queued in
 * order, and past that `HashingBusy` at once. Exported for its test, which counts what runs.
 */
export function slots(maxRunning: number, maxWaiting: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async function inSlot<T>(task: () => Promise<T>): Promise<T> {
    if (running >= maxRunning) {
      if (waiting.length >= maxWaiting) throw new HashingBusy();
      await new Promise<void>((resolve) => waiting.push(resolve));
    } else running++;
    try {
      return await task();
    } finally {
      // The slot passes straight to the next waiter, so `running` never drops in between.
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}

const inSlot = slots(MAX_RUNNING, MAX_WAITING);

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return inSlot(
    () =>
      new Promise((resolve, reject) => {
        scrypt(
          password.normalize('NFKC'),
          salt,
          KEY_LENGTH,
          { ...options, maxmem: MAX_MEMORY },
          (error, key) => (error ? reject(error) : resolve(key)),
        );
      }),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, SCRYPT_COST);
  const { N, r, p } = SCRYPT_COST;
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

function parse(stored: string) {
  const [scheme, N, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return undefined;
  const cost = { N: Number(N), r: Number(r), p: Number(p) };
  if (!Object.values(cost).every((n) => Number.isSafeInteger(n) && n > 0)) return undefined;
  return { cost, salt: Buffer.from(salt, 'base64url'), hash: Buffer.from(hash, 'base64url') };
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed) return false;
  const key = await derive(password, parsed.salt, parsed.cost);
  return constantTimeEqual(key.toString('base64url'), parsed.hash.toString('base64url'));
}

/** True for a hash made at another cost than today's: the next successful sign-in replaces it. */
export function needsRehash(stored: string): boolean {
  const cost = parse(stored)?.cost;
  return cost?.N !== SCRYPT_COST.N || cost.r !== SCRYPT_COST.r || cost.p !== SCRYPT_COST.p;
}

/** A password for a generated account: 20 base62 characters (119 bits). */
export function generatePassword(): string {
  return randomString(BASE62_ALPHABET, 20);
}

export const PASSWORD_MIN_LENGTH = 10;
