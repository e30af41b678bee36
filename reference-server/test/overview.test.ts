/**
 * The overview use case on a real store with a clock the test moves: sign-ups land in the
 * UTC day they joined, read from the day aggregates the stats endpoint reads (so an erased one
 * stays counted on its day), and the top referrers come most first.
 */
import { tempDir } from '@waitlistkit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../src/adapters/clock.js';
import { type Acting, acting } from '../src/app/guard.js';
import { type WaitlistOverview, waitlistOverview } from '../src/app/overview.js';
import { must, type Result } from '../src/app/refusal.js';
import { type OperatorServices, openStore, operatorServices } from '../src/container.js';
import type { Operator, SignupRow, Waitlist } from '../src/domain/records.js';
import type { Store } from '../src/store/store.js';

const dir = tempDir();
let now = Date.parse('2026-02-13T23:59:59.999Z');
const clock: Clock = { now: () => now, nowMicros: () => now * 1000 };
let store: Store;
let operators: OperatorServices;
let admin: Operator;
let asAdmin: Acting;
let waitlist: Waitlist;

beforeAll(async () => {
  store = await openStore(dir.db, { clock });
  operators = operatorServices(store, clock);
  const tenant = must(await operators.tenants.create('T', 'pro'));
  ({ operator: admin } = must(
    await operators.tenants.createOperator(
      { tenantId: tenant.id },
      { email: 'admin@example.com', role: 'admin', password: 'correct horse battery' },
    ),
  ));
  asAdmin = acting(admin);
  waitlist = must(await operators.waitlists.create({ tenantId: tenant.id }, 'W', { referrals: true }));
});
afterAll(async () => {
  await store.close();
  dir.cleanup();
});

async function signUp(email: string, at: string, referralCode?: string): Promise<SignupRow> {
  now = Date.parse(at);
  const result = await store.write((tx) =>
    tx.subscribers.signUp(
      { waitlistId: waitlist.id, email, emailNorm: email, referralCode, confirm: false },
      now * 1000,
    ),
  );
  if (result.outcome === 'waitlist_gone') throw new Error('waitlist gone');
  return result.subscriber;
}

const overviewNow = (asked?: { from?: string; to?: string }): Promise<Result<WaitlistOverview>> =>
  waitlistOverview({ store, clock }, { tenantId: admin.tenant_id }, waitlist.id, asked);
const days = (o: WaitlistOverview) => o.stats.days.map((d) => ({ day: d.date, count: d.signups }));

describe('waitlist overview', () => {
  it('counts sign-ups per UTC day over the last 30 days from the aggregates, the line, the admitted and the top referrers', async () => {
    await signUp('before@example.com', '2026-02-13T23:59:59.999Z'); // the day before the 30
    const first = await signUp('first@example.com', '2026-02-14T00:00:00.000Z'); // the first of the 30
    const second = await signUp('second@example.com', '2026-03-01T10:00:00Z', first.referral_code);
    await signUp('third@example.com', '2026-03-01T11:00:00Z', first.referral_code);
    await signUp('fourth@example.com', '2026-03-15T00:00:00.000Z', second.referral_code);
    const gone = await signUp('gone@example.com', '2026-03-15T09:00:00Z', first.referral_code);
    const late = await signUp('late@example.com', '2026-03-15T23:59:59.999Z');
    await signUp('referred-by-late@example.com', '2026-03-15T23:59:59.999Z', late.referral_code);

    must(await operators.subscribers.erase(asAdmin, waitlist.id, { id: gone.id }));
    // Admits the first in line: `before`.
    must(await operators.subscribers.admit(asAdmin, waitlist.id, { count: 1 }));

    now = Date.parse('2026-03-15T23:59:59.999Z');
    const overview = must(await overviewNow());
    expect(days(overview)).toHaveLength(30);
    expect(days(overview)[0]).toEqual({ day: '2026-02-14', count: 1 });
    expect(days(overview).find((d) => d.day === '2026-03-01')).toEqual({ day: '2026-03-01', count: 2 });
    // Fourth, gone, late and the one late referred: the erasure took nothing from the day (docs/insights.md#stats).
    expect(days(overview).at(-1)).toEqual({ day: '2026-03-15', count: 4 });
    expect(overview.stats.totals.signups).toBe(7);
    // Five of the seven came through a link: second, third, fourth, gone, referred-by-late.
    expect(overview.stats.totals.referred_share).toBeCloseTo(5 / 7);
    expect({ waiting: overview.waiting, admitted: overview.admitted }).toEqual({ waiting: 6, admitted: 1 });
    // First keeps the credit of the erased one: 3; then second and late with 1 each, in join order.
    expect(overview.topReferrers.map((s) => [s.email, s.referral_count, s.status])).toEqual([
      ['first@example.com', 3, 'waiting'],
      ['second@example.com', 1, 'waiting'],
      ['late@example.com', 1, 'waiting'],
    ]);
    expect(overview.topReferrers[0]?.position).toBe(1);
  });

  it('moves the window with the clock: a day later the oldest day drops out', async () => {
    now = Date.parse('2026-03-16T00:00:00Z');
    const overview = must(await overviewNow());
    expect(days(overview)[0]).toEqual({ day: '2026-02-15', count: 0 });
    expect(days(overview).at(-1)).toEqual({ day: '2026-03-16', count: 0 });
    expect(overview.stats.totals.signups).toBe(6);
  });

  it('reads the range asked for, and refuses one the stats endpoint refuses, naming the parameter', async () => {
    const week = must(await overviewNow({ from: '2026-03-09', to: '2026-03-15' }));
    expect(days(week).map((d) => d.count)).toEqual([0, 0, 0, 0, 0, 0, 4]);
    const reversed = await overviewNow({ from: '2026-03-15', to: '2026-03-01' });
    expect(reversed.ok ? undefined : reversed.refusal).toMatchObject({
      code: 'invalid_request',
      field: 'from',
    });
    const malformed = await overviewNow({ to: '2026-02-30' });
    expect(malformed.ok ? undefined : malformed.refusal).toMatchObject({
      code: 'invalid_request',
      field: 'to',
    });
  });

  it('shows a referrer that was let in with its status and no position', async () => {
    const first = must(await operators.subscribers.get(asAdmin, waitlist.id, { email: 'first@example.com' }));
    const [admitted] = must(
      await operators.subscribers.admit(asAdmin, waitlist.id, { subscriberIds: [first.subscriber.id] }),
    );
    expect(admitted?.email).toBe('first@example.com');
    const overview = must(await overviewNow());
    expect(overview.topReferrers[0]).toMatchObject({
      email: 'first@example.com',
      status: 'admitted',
      position: null,
    });
    expect({ waiting: overview.waiting, admitted: overview.admitted }).toEqual({ waiting: 5, admitted: 2 });
  });

  it('is not found for another tenant', async () => {
    const other = must(await operators.tenants.create('Other', 'pro'));
    const theirs = await waitlistOverview({ store, clock }, { tenantId: other.id }, waitlist.id);
    expect(theirs.ok ? undefined : theirs.refusal.code).toBe('not_found');
    const missing = await waitlistOverview({ store, clock }, { tenantId: admin.tenant_id }, 'wl_missing');
    expect(missing.ok ? undefined : missing.refusal.code).toBe('not_found');
  });
});
