/**
 * What a mail of the outbox says, read when its turn comes (docs/messages.md#the-three-messages):
 * the confirmation mail, one of the waitlist's messages filled for its subscriber as they are
 * now, or an operator's test of a message. Undefined when it is no longer to be sent: the
 * subscriber erased, the waitlist archived, the message switched off, or (welcome and referral)
 * the subscriber unsubscribed.
 */
import { confirmUrl } from '../domain/confirmation.js';
import { confirmationMailContent } from '../domain/confirmation-mail.js';
import { languageOf } from '../domain/language-of.js';
import { chooseText, isOn } from '../domain/message-choice.js';
import { isMessageKind, type MessageKind, messageMail, tagValues } from '../domain/messages.js';
import { wordsFor } from '../domain/texts/index.js';
import type { Store } from '../store/store.js';
import { type MessageTest, testMail } from './message-tests.js';
import { unsubscribeUrl } from './unsubscribe.js';

export interface MailContent {
  to: string;
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
}

/** What a mail delivery holds: its subscriber and which message (none: the confirmation mail), or a test. */
type MailBody = { subscriber_id: string; kind?: string; test?: MessageTest };

/** A mail delivery's body: whom it is for, and which message (none: the confirmation mail). */
export async function mailContent(
  store: Store,
  body: string,
  appUrl: string,
): Promise<MailContent | undefined> {
  const { subscriber_id, kind, test } = JSON.parse(body) as MailBody;
  if (test !== undefined) return testMail(store, test, appUrl);
  if (kind !== undefined)
    return isMessageKind(kind) ? subscriberMail(store, subscriber_id, kind, appUrl) : undefined;
  const facts = await store.reads.confirmations.mail(subscriber_id);
  if (!facts?.needed) return undefined;
  return {
    to: facts.email,
    ...confirmationMailContent(facts.waitlistName, confirmUrl(appUrl, facts.token), wordsFor(facts.lang)),
  };
}

function subscriberMail(
  store: Store,
  subscriberId: string,
  kind: MessageKind,
  appUrl: string,
): Promise<MailContent | undefined> {
  return store.read(async (tx) => {
    const to = await tx.messages.addressee(subscriberId);
    if (!to || (to.unsubscribed && kind !== 'admitted')) return undefined;
    const waitlist = await tx.waitlists.get(to.waitlistId);
    if (!waitlist || waitlist.archived) return undefined;
    const versions = await tx.messages.versions(waitlist.id, kind);
    const [subscriber] = await tx.subscribers.byIds(waitlist.id, waitlist.settings, [subscriberId]);
    if (!isOn(versions) || !subscriber) return undefined;
    // Their language's version, else the waitlist's own in its language, else ours (domain/message-choice.ts).
    const lang = languageOf(to, waitlist.settings);
    const message = { kind, ...chooseText(kind, lang, versions, waitlist.settings.default_lang) };
    const { referrals, origins, access_url } = waitlist.settings;
    const origin = origins[0];
    const values = tagValues(waitlist.name, access_url, {
      email: to.email,
      position: subscriber.position,
      referralCount: subscriber.referral_count,
      fields: subscriber.fields,
      statusUrl: referrals ? `${appUrl}/s/${to.statusToken}` : undefined,
      referralLink: referrals && origin ? `${origin}/?ref=${subscriber.referral_code}` : undefined,
    });
    const mail = messageMail(message, values, unsubscribeUrl(appUrl, to.statusToken), wordsFor(lang));
    return mail && { to: to.email, ...mail };
  });
}
