import { type ChallengeRequired, ChallengeRequiredSchema, solvePow } from '@waitlistkit/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { powDifficulty } from '../src/domain/pow-difficulty.js';
import { type Harness, harness, ORIGIN, publicPost } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

async function gate(res: Response): Promise<ChallengeRequired> {
  expect(res.status).toBe(428);
  return ChallengeRequiredSchema.parse(await res.json());
}

async function powOf(res: Response): Promise<{ nonce: string; difficulty: number }> {
  const answer = await gate(res);
  if (answer.gate !== 'pow') throw new Error('expected the pow gate');
  return answer.pow;
}

/** Signs `count` distinct emails up from this one address, solving each nonce; the difficulties offered. */
async function signUps(waitlistId: string, count: number): Promise<number[]> {
  const offered: number[] = [];
  for (let i = 1; i <= count; i++) {
    const email = `repeat-${i}@example.com`;
    const pow = await powOf(await publicPost(h.server, waitlistId, { email }));
    offered.push(pow.difficulty);
    const solution = solvePow(pow.nonce, pow.difficulty) as number;
    const ok = await publicPost(h.server, waitlistId, { email, pow: { nonce: pow.nonce, solution } });
    expect(ok.status).toBe(202);
  }
  return offered;
}

const BASE = 8;
const powWaitlist = (...more: string[]) =>
  h.tenant({ waitlist: ['--origins', ORIGIN, '--pow', 'on', '--pow-difficulty', String(BASE), ...more] });

describe('adaptive Proof of Work over HTTP (contract §16)', () => {
  it('prices repeated sign-ups from one address: base for the first three, then two bits per doubling', async () => {
    const t = await powWaitlist('--pow-adaptive', 'on');
    const offered = await signUps(t.waitlistId, 9);
    // The n-th sign-up sees a = n - 1 accepted before it.
    expect(offered).toEqual([0, 0, 0, 2, 2, 3, 4, 4, 4].map((repeat) => BASE + repeat));
    expect([offered[2], offered[4], offered[8]]).toEqual([BASE, BASE + 2, BASE + 4]);
  });

  it('leaves the difficulty at the base when adaptive is off', async () => {
    const t = await powWaitlist();
    expect(await signUps(t.waitlistId, 9)).toEqual(Array(9).fill(BASE));
  });

  it('raises the difficulty for everyone under a surge of nonces, by at most four bits', async () => {
    const threshold = 5;
    const t = await powWaitlist(
      '--pow-adaptive',
      'on',
      '--pow-surge-threshold',
      String(threshold),
      '--ip-limit',
      '1000',
    );
    const started = Date.now();
    const offered: number[] = [];
    for (let i = 0; i < 90; i++) {
      offered.push(
        (await powOf(await publicPost(h.server, t.waitlistId, { email: `s${i}@example.com` }))).difficulty,
      );
    }
    // Every nonce so far is in the surge window only if this took under a minute.
    expect(Date.now() - started).toBeLessThan(60_000);
    // The k-th nonce sees the k - 1 issued before it.
    const expected = offered.map(
      (_, k) => BASE + Math.min(4, Math.max(0, Math.ceil(Math.log2(k / threshold)))),
    );
    expect(offered).toEqual(expected);
    expect(offered.slice(0, 6)).toEqual(Array(6).fill(BASE));
    expect(offered[10]).toBe(BASE + 1);
    expect(offered.at(-1)).toBe(BASE + 4);
    expect(offered).toEqual(
      offered.map((_, k) =>
        powDifficulty(BASE, true, { issuedLastMinute: k, threshold, acceptedFromIpLastHour: 0 }),
      ),
    );
  });
});
