/**
 * "Send me a test" (docs/messages.md#test-mail): a message as it stands in the editor, saved or
 * not, mailed to the operator who asks, through the outbox and SMTP like the real mail: the
 * sample subscriber's rendering and headers, the subject marked as a test. Anyone of the tenant
 * may ask (it changes nothing and goes only to their own address), a few times a minute; a
 * server without SMTP refuses at once rather than queue a test that would wait for one.
 */

import type { Language } from '@waitlistkit/protocol';
import { newId, newMessageId } from '../domain/ids.js';
import type { MessageKind } from '../domain/messages.js';
import { wordsFor } from '../domain/texts/index.js';
import type { Store } from '../store/store.js';
import type { Context } from './context.js';
import { type Acting, own } from './guard.js';
import type { MailContent } from './mail-content.js';
import { checkDraft, type Draft, sampleMail } from './messages.js';
import { conflict, notFound, ok, type Result, refuse, throttled } from './refusal.js';

/** What a test mail's delivery holds: the draft as it was sent, rendered when its turn comes. */
export interface MessageTest {
  waitlist_id: string;
  kind: MessageKind;
  to: string;
  subject: string;
  body: string;
  /** The version's language; absent, the waitlist's default (a test queued before versions had none). */
  lang?: Language;
}

export const TEST_SUBJECT_PREFIX = '[Test] ';

/** The test mail of a delivery's draft; none once its waitlist is gone. */
export async function testMail(
  store: Store,
  test: MessageTest,
  appUrl: string,
): Promise<MailContent | undefined> {
  const waitlist = await store.reads.waitlists.get(test.waitlist_id);
  const mail =
    waitlist && sampleMail(waitlist, test, appUrl, wordsFor(test.lang ?? waitlist.settings.default_lang));
  return mail && { to: test.to, ...mail, subject: `${TEST_SUBJECT_PREFIX}${mail.subject}` };
}

export class MessageTests {
  constructor(private readonly ctx: Pick<Context, 'store' | 'clock' | 'config' | 'limiters' | 'limits'>) {}

  /** Queues the test of `draft`, in `lang` when it is a version's, to the operator's own address. */
  async send(
    who: Acting,
    waitlistId: string,
    draft: Draft,
    lang?: Language,
  ): Promise<Result<{ to: string }>> {
    const { store, clock, config, limiters, limits } = this.ctx;
    const waitlist = own(who, await store.reads.waitlists.get(waitlistId));
    if (!waitlist) return refuse(notFound('waitlist', waitlistId));
    const checked = checkDraft(waitlist, draft);
    if (!checked.ok) return checked;
    if (!config.sendsMail)
      return refuse(
        conflict(
          'This server has no WAITLIST_SMTP_URL, so it sends no mail, tests included. Set WAITLIST_SMTP_URL and WAITLIST_MAIL_FROM.',
        ),
      );
    const now = clock.now();
    const take = await limiters.testMail.take(who.operator.id, now, limits.testMail);
    if (!take.allowed)
      return refuse(
        throttled(
          `You sent ${limits.testMail.capacity} tests in the last minute; send another in ${take.retryAfter} s.`,
          take.retryAfter,
        ),
      );
    const to = who.operator.email;
    const test: MessageTest = {
      waitlist_id: waitlist.id,
      kind: draft.kind,
      to,
      subject: draft.subject,
      body: draft.body,
      ...(lang === undefined ? {} : { lang }),
    };
    await store.write(async (tx) => {
      await tx.messages.queueTest(
        {
          id: newId('delivery'),
          tenantId: who.tenantId,
          messageId: newMessageId(),
          body: JSON.stringify({ test }),
        },
        now,
      );
      // By ids and kind only: the log never holds an address.
      await tx.activity.append(
        {
          tenantId: who.tenantId,
          actor: who.actor,
          action: 'message.test_sent',
          subjectId: waitlist.id,
          details: { kind: draft.kind },
        },
        now,
      );
    });
    return ok({ to });
  }
}
