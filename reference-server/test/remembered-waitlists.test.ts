/**
 * The public sign-up decides on the waitlist as the server remembers it (issue 16, item 4a):
 * every change made behind its back, by the command line here, still takes effect on the very
 * next request, and a request decided twice (once on the remembered waitlist, once on the fresh
 * one) is counted once by the throttles.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, type Harness, harness, ORIGIN, publicPost } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness({}, ['--trust-proxy']);
});
afterAll(() => h.close());

const json = { 'Content-Type': 'application/json' };
const from = (origin: string, ip = '198.51.100.20') => ({ ...json, Origin: origin, 'X-Forwarded-For': ip });
let n = 0;
const email = (domain = 'example.com') => `person${++n}@${domain}`;

async function waitlist(ipLimit = '1000', ...settings: string[]): Promise<{ id: string; tenant: string }> {
  const t = await h.tenant({ waitlist: ['--origins', ORIGIN, '--ip-limit', ipLimit, ...settings] });
  return { id: t.waitlistId, tenant: t.tenantId };
}

const update = (id: string, ...settings: string[]) =>
  h.cli(['waitlist', 'update', '--waitlist', id, ...settings]);

describe('a waitlist changed behind the server’s back', () => {
  it('answers the next sign-up by the new settings: refusals, gates and archiving', async () => {
    const w = await waitlist();
    const signUp = (headers = from(ORIGIN), domain?: string) =>
      publicPost(h.server, w.id, { email: email(domain) }, headers);
    // The first sign-up reads the waitlist; the server remembers it from then on.
    expect((await signUp()).status).toBe(202);
    expect((await signUp()).status).toBe(202);

    await update(w.id, '--block-disposable', 'on');
    const disposable = await signUp(from(ORIGIN), 'mailinator.com');
    expect([disposable.status, (await errorOf(disposable)).code]).toEqual([400, 'invalid_email']);

    await update(w.id, '--origins', 'https://elsewhere.example');
    expect((await signUp()).status).toBe(404);
    expect((await signUp(from('https://elsewhere.example'))).status).toBe(202);

    await update(w.id, '--pow', 'on');
    expect((await signUp(from('https://elsewhere.example'))).status).toBe(428);
    await update(w.id, '--pow', 'off');
    expect((await signUp(from('https://elsewhere.example'))).status).toBe(202);

    await h.cli(['waitlist', 'archive', '--waitlist', w.id]);
    expect((await signUp(from('https://elsewhere.example'))).status).toBe(404);
  });

  it('accepts an origin allowed since it was remembered, on the first request from it', async () => {
    const w = await waitlist();
    expect((await publicPost(h.server, w.id, { email: email() }, from(ORIGIN))).status).toBe(202);
    await update(w.id, '--origins', `${ORIGIN},https://new.example`);
    expect((await publicPost(h.server, w.id, { email: email() }, from('https://new.example'))).status).toBe(
      202,
    );
  });

  it('counts a request decided twice once against the per-address limit', async () => {
    const w = await waitlist('3');
    const ip = '198.51.100.30';
    const signUp = () => publicPost(h.server, w.id, { email: email() }, from(ORIGIN, ip));
    expect((await signUp()).status).toBe(202);
    // The next one is decided on the remembered waitlist, refused by its write (another
    // version), and decided again on the fresh one: one attempt, counted once.
    await update(w.id, '--referrals', 'on');
    expect((await signUp()).status).toBe(202);
    expect((await signUp()).status).toBe(202);
    const fourth = await signUp();
    expect([fourth.status, (await errorOf(fourth)).code]).toEqual([429, 'rate_limit_exceeded']);
  });

  it('counts a request decided twice once against the per-email limit', async () => {
    const w = await waitlist('1000', '--email-throttle', 'on');
    const same = 'once@example.com';
    const signUp = (ip: string) => publicPost(h.server, w.id, { email: same }, from(ORIGIN, ip));
    const statuses: number[] = [(await signUp('198.51.100.40')).status];
    await update(w.id, '--referrals', 'on');
    for (let i = 1; i <= 5; i++) statuses.push((await signUp(`198.51.100.${40 + i}`)).status);
    // Five attempts an hour per address and email: the fifth passes, the sixth does not.
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);
  });
});
