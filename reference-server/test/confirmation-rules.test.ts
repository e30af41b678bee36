/**
 * Email confirmation's rules (docs/subscribers.md#email-confirmation): the pure ones without I/O, then the store's on a
 * real SQLite file with a clock the test moves (the ten minutes between mails, one credit per
 * confirmation, credit only while it is still due).
 */
import { tempDir } from '@waitlistkit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../src/adapters/clock.js';
import { confirmEmail } from '../src/app/confirmations.js';
import type { Context } from '../src/app/context.js';
import { must } from '../src/app/refusal.js';
import { type OperatorServices, openStore, operatorServices } from '../src/container.js';
import { isConfirmed, MAIL_AGAIN_AFTER_US, mailsAgain } from '../src/domain/confirmation.js';
import { confirmationMailContent } from '../src/domain/confirmation-mail.js';
import type { SignupRow, Waitlist } from '../src/domain/records.js';
import { wordsFor } from '../src/domain/texts/index.js';
import type { Store } from '../src/store/store.js';

describe('the rules', () => {
  it('mails again only once ten minutes have passed since the last mail', () => {
    expect(mailsAgain(null, 0)).toBe(true);
    expect(mailsAgain(1_000, 1_000 + MAIL_AGAIN_AFTER_US - 1)).toBe(false);
    expect(mailsAgain(1_000, 1_000 + MAIL_AGAIN_AFTER_US)).toBe(true);
    expect(MAIL_AGAIN_AFTER_US).toBe(600_000_000);
  });

  it('counts as confirmed whoever is on a waitlist that does not confirm, or pressed the button, or joined before', () => {
    const pending = { confirm_token: 't', confirmed_us: null };
    expect(isConfirmed(false, pending)).toBe(true);
    expect(isConfirmed(true, pending)).toBe(false);
    expect(isConfirmed(true, { confirm_token: 't', confirmed_us: 5 })).toBe(true);
    expect(isConfirmed(true, { confirm_token: null, confirmed_us: null })).toBe(true);
  });

  it('writes the waitlist name as text in the HTML and on one line in the subject', () => {
    const mail = confirmationMailContent(
      'Acme <script>"x"</script> &\r\nBcc: evil@x.example',
      'https://a.example/c/T',
      wordsFor('en'),
    );
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.subject).toBe('Confirm your email for Acme <script>"x"</script> & Bcc: evil@x.example');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('Acme &lt;script&gt;&quot;x&quot;&lt;/script&gt; &amp;');
    expect(mail.html).toContain('href="https://a.example/c/T"');
    expect(mail.text).toContain('https://a.example/c/T');
    expect(mail.text).toContain('signed up for the Acme');
  });
});

describe('the store', () => {
  const dir = tempDir();
  let now = Date.parse('2026-03-01T12:00:00Z');
  const clock: Clock = { now: () => now, nowMicros: () => now * 1000 };
  let store: Store;
  let operators: OperatorServices;
  let tenantId: string;

  beforeAll(async () => {
    store = await openStore(dir.db, { clock });
    operators = operatorServices(store, clock);
    tenantId = must(await operators.tenants.create('T', 'pro')).id;
  });
  afterAll(async () => {
    await store.close();
    dir.cleanup();
  });

  const ctx = () => ({ store, clock }) as unknown as Context;

  async function signUp(waitlist: Waitlist, email: string, referralCode?: string): Promise<SignupRow> {
    const result = await store.write((tx) =>
      tx.subscribers.signUp(
        { waitlistId: waitlist.id, email, emailNorm: email, referralCode, confirm: true },
        clock.nowMicros(),
      ),
    );
    if (result.outcome === 'waitlist_gone') throw new Error('waitlist gone');
    return result.subscriber;
  }

  // No worker runs here: every mail queued stays pending.
  const queued = () => store.reads.outbox.waitingMail();

  async function tokenOf(id: string): Promise<string> {
    return ((await store.reads.confirmations.mail(id)) as { token: string }).token;
  }

  const countOf = async (waitlist: Waitlist, id: string) =>
    (await store.reads.subscribers.get(waitlist.id, waitlist.settings, id))?.referral_count;

  it('queues a mail with the row, again on a re-sign-up ten minutes later, and never once confirmed', async () => {
    const waitlist = must(
      await operators.waitlists.create({ tenantId }, 'Ten minutes', { confirm_email: true }),
    );
    const before = await queued();
    const { id } = await signUp(waitlist, 'ten@example.com');
    expect(await queued()).toBe(before + 1);
    now += MAIL_AGAIN_AFTER_US / 1000 - 1;
    await signUp(waitlist, 'ten@example.com');
    expect(await queued()).toBe(before + 1);
    now += 1;
    await signUp(waitlist, 'ten@example.com');
    expect(await queued()).toBe(before + 2);
    // The ten minutes run from the last mail, not the first.
    now += MAIL_AGAIN_AFTER_US / 1000 - 1;
    await signUp(waitlist, 'ten@example.com');
    expect(await queued()).toBe(before + 2);

    expect(await confirmEmail(ctx(), await tokenOf(id))).toBe(true);
    now += 3 * (MAIL_AGAIN_AFTER_US / 1000);
    await signUp(waitlist, 'ten@example.com');
    expect(await queued()).toBe(before + 2);
    expect((await store.reads.confirmations.mail(id))?.needed).toBe(false);
  });

  it('credits the referrer once, on the first confirmation, while referrals are on and the referrer is there', async () => {
    const waitlist = must(
      await operators.waitlists.create({ tenantId }, 'Credit', {
        confirm_email: true,
        referrals: true,
        referral_boost: 2,
      }),
    );
    await signUp(waitlist, 'first@example.com');
    const referrer = await signUp(waitlist, 'referrer@example.com');
    const friend = await signUp(waitlist, 'friend@example.com', referrer.referral_code);
    const stranger = await signUp(waitlist, 'stranger@example.com', referrer.referral_code);
    expect(await countOf(waitlist, referrer.id)).toBe(0);
    // Confirming twice credits once.
    await confirmEmail(ctx(), await tokenOf(friend.id));
    await confirmEmail(ctx(), await tokenOf(friend.id));
    expect(await countOf(waitlist, referrer.id)).toBe(1);
    // The credit moves the referrer up by the boost, as a credit at sign-up would.
    const line = await store.reads.subscribers.list(waitlist.id, waitlist.settings, {
      page: 1,
      limit: 10,
      q: '',
      status: 'waiting',
    });
    expect(line.items.map((s) => s.email)).toEqual([
      'referrer@example.com',
      'first@example.com',
      'friend@example.com',
      'stranger@example.com',
    ]);

    // Referrals turned off before the stranger confirms: nothing is credited.
    const off = must(
      await operators.waitlists.update({ tenantId }, waitlist.id, { patch: { referrals: false } }),
    );
    await confirmEmail(ctx(), await tokenOf(stranger.id));
    expect(await countOf(off, referrer.id)).toBe(1);
  });

  it('confirms without a credit when the referrer was erased meanwhile, and not at all on an archived waitlist', async () => {
    const waitlist = must(
      await operators.waitlists.create({ tenantId }, 'Erased referrer', {
        confirm_email: true,
        referrals: true,
      }),
    );
    const referrer = await signUp(waitlist, 'gone@example.com');
    const friend = await signUp(waitlist, 'left@example.com', referrer.referral_code);
    await store.write((tx) => tx.subscribers.erase(waitlist.id, referrer.id));
    expect(await confirmEmail(ctx(), await tokenOf(friend.id))).toBe(true);
    expect((await store.reads.subscribers.get(waitlist.id, waitlist.settings, friend.id))?.confirmed).toBe(
      true,
    );

    const late = await signUp(waitlist, 'late@example.com');
    const token = await tokenOf(late.id);
    must(await operators.waitlists.update({ tenantId }, waitlist.id, { archive: true }));
    expect(await confirmEmail(ctx(), token)).toBe(false);
  });
});
