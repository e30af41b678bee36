/**
 * Dashboard sign-in and sessions. The throttles live here, not in the form's handler: per
 * address whatever the email (each attempt costs a scrypt run), and per address and email, an
 * address counted by its client key (an IPv6 client by its /64, domain/client-key). A
 * session id is 256 random bits; the store keeps only its SHA-256.
 */
import { randomBytes } from 'node:crypto';
import { checkEmail } from '@waitlistkit/protocol';
import { HashingBusy, hashPassword, needsRehash, verifyPassword } from '../adapters/passwords.js';
import { clientKey } from '../domain/client-key.js';
import { sha256Hex } from '../domain/crypto.js';
import type { Operator, Session } from '../domain/records.js';
import type { Context } from './context.js';

export const SESSION_MS = 12 * 60 * 60 * 1000;

// A real scrypt hash of a random password nobody knows: verifying against it costs what a real check costs.
const UNKNOWN_OPERATOR_HASH =
  'scrypt$131072$8$1$Q1z6kxBLL9k1j3bAa4Zz8g$c0eQ9uYp5kz2m8N4l1W9c0v7Jv3hQ6bK2x4R7tY1u0E';

export type SignInResult =
  | { kind: 'signed_in'; sessionId: string }
  | { kind: 'wrong' }
  | { kind: 'throttled'; retryAfter: number }
  | { kind: 'busy'; message: string; retryAfter: number };

export class Sessions {
  constructor(private readonly ctx: Context) {}

  async signIn(email: string, password: string, ip: string | undefined): Promise<SignInResult> {
    const { limiters, limits, clock } = this.ctx;
    const now = clock.now();
    const normalized = checkEmail(email);
    const client = clientKey(ip);
    // Per address first, whatever the email: otherwise varying it buys unlimited password checks.
    // Both count, whatever the other answers.
    const throttle = (
      await Promise.all([
        limiters.signInIp.take(client, now, limits.signInIp),
        limiters.signIn.take(
          `${normalized.ok ? normalized.normalized : email}|${client}`,
          now,
          limits.signIn,
        ),
      ])
    ).find((t) => !t.allowed);
    if (throttle) return { kind: 'throttled', retryAfter: throttle.retryAfter };
    let operatorId: string | undefined;
    try {
      operatorId = password.length <= 1024 ? (await this.verify(email, password))?.id : undefined;
    } catch (error) {
      if (error instanceof HashingBusy) return { kind: 'busy', message: error.message, retryAfter: 5 };
      throw error;
    }
    if (!operatorId) return { kind: 'wrong' };
    return { kind: 'signed_in', sessionId: await this.start(operatorId) };
  }

  /**
   * The operator with this email and password, or undefined; as slow for unknown emails as for
   * known ones. A hash made at an older cost is replaced by one at today's, now that the password
   * is known to be right.
   */
  private async verify(email: string, password: string): Promise<Operator | undefined> {
    const { store } = this.ctx;
    const check = checkEmail(email);
    const found = check.ok ? await store.reads.operators.findByEmail(check.normalized) : undefined;
    const valid = await verifyPassword(password, found?.password_hash ?? UNKNOWN_OPERATOR_HASH);
    if (!found || !valid) return undefined;
    const { password_hash: stored, ...operator } = found;
    if (needsRehash(stored)) {
      const fresh = await hashPassword(password);
      await store.write((tx) => tx.operators.replacePasswordHash(operator.id, stored, fresh));
    }
    return operator;
  }

  private async start(operatorId: string): Promise<string> {
    const id = randomBytes(32).toString('base64url');
    const now = this.ctx.clock.now();
    await this.ctx.store.write((tx) =>
      tx.sessions.insert({
        idHash: sha256Hex(id),
        operatorId,
        csrf: randomBytes(24).toString('base64url'),
        createdAt: now,
        expiresAt: now + SESSION_MS,
      }),
    );
    return id;
  }

  /** The live session of this id and its operator, read fresh: a deleted operator has none. */
  current(sessionId: string): Promise<Session | undefined> {
    return this.ctx.store.reads.sessions.find(sha256Hex(sessionId), this.ctx.clock.now());
  }

  async end(sessionId: string): Promise<void> {
    await this.ctx.store.write((tx) => tx.sessions.delete(sha256Hex(sessionId)));
  }
}
