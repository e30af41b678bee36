/**
 * The demo of the README's first command: on an empty database, a tenant on Pro, an admin, a
 * waitlist with referrals whose origin allowlist holds the demo page's own origin, and a key.
 * Secrets are printed once, here; they are stored only as hashes.
 */
import type { Waitlist } from '../domain/records.js';
import type { Store } from '../store/store.js';
import { acting } from './guard.js';
import type { Keys } from './keys.js';
import { must } from './refusal.js';
import type { Tenants } from './tenants.js';
import type { Waitlists } from './waitlists.js';

export interface DemoDeps {
  store: Store;
  tenants: Tenants;
  waitlists: Waitlists;
  keys: Keys;
  /** Where the API is reached, for the printed curl line. */
  baseUrl: string;
}

export interface DemoSeed {
  waitlistId: string | undefined;
  created: boolean;
  announcement: string;
}

/** Refusals here would be bugs: every input is the demo's own. */
export async function seedDemo(
  { store, tenants, waitlists, keys, baseUrl }: DemoDeps,
  origin: string,
): Promise<DemoSeed> {
  const existing = await store.reads.meta.get('demo_waitlist_id');
  if (existing) {
    const waitlist = await store.reads.waitlists.get(existing);
    // The port may differ from the first run: the demo page's origin replaces the one of an
    // earlier run (same scheme and host), so the list does not grow with every restart.
    if (waitlist && !waitlist.settings.origins.includes(origin)) {
      const host = (o: string) => `${new URL(o).protocol}//${new URL(o).hostname}`;
      const others = waitlist.settings.origins.filter((o) => host(o) !== host(origin));
      const scope = { tenantId: waitlist.tenant_id };
      must(await waitlists.update(scope, waitlist.id, { patch: { origins: [...others, origin] } }));
    }
    return { waitlistId: waitlist?.id, created: false, announcement: '' };
  }
  if ((await store.reads.tenants.count()) > 0)
    return { waitlistId: undefined, created: false, announcement: '' };

  const tenant = must(await tenants.create('Demo', 'pro'));
  const scope = { tenantId: tenant.id };
  const { operator, password } = must(
    await tenants.createOperator(scope, { email: 'admin@demo.example', role: 'admin' }),
  );
  // What sets the product apart, on: both gates (the widget passes them while the visitor
  // types, so they cost a person nothing) and referrals that move people up.
  const waitlist = must(
    await waitlists.create(scope, 'Demo waitlist', {
      referrals: true,
      referral_boost: 5,
      challenge: true,
      pow: true,
      origins: [origin],
    }),
  );
  const { value } = must(await keys.create(acting(operator), 'Demo backend', 'full'));
  await store.write((tx) => tx.meta.putOnce('demo_waitlist_id', waitlist.id));
  const announcement = [
    '',
    '  Demo created (shown once; only hashes are stored):',
    `    demo page      ${origin}/`,
    `    dashboard      ${origin}/dashboard   sign in as ${operator.email} / ${password}`,
    `    tenant         ${tenant.id} (plan pro)`,
    `    waitlist       ${waitlist.id} (Challenge and Proof of Work on, referral boost 5, origin ${origin})`,
    `    API key        ${value}`,
    `    try it         curl -H "Authorization: Bearer ${value}" ${baseUrl}/v1/api/waitlists/${waitlist.id}/subscribers`,
    '',
  ].join('\n');
  return { waitlistId: waitlist.id, created: true, announcement: `${announcement}\n` };
}

/** The waitlist the demo page signs up to, while it is live. */
export async function liveWaitlist(store: Store, id: string | undefined): Promise<Waitlist | undefined> {
  const waitlist = id === undefined ? undefined : await store.reads.waitlists.get(id);
  return waitlist && !waitlist.archived ? waitlist : undefined;
}
