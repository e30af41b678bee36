/**
 * A waitlist's messages (docs/messages.md#the-three-messages): what one may say when it is saved,
 * and the values its merge tags take for one subscriber when it is sent or previewed. Pure: the
 * rules are tested without a store or a mail server; filling is message-template.ts's.
 */
import type { FieldValues } from '@waitlistkit/protocol';
import {
  type Checked,
  fill,
  fillSubject,
  htmlFromText,
  type MergeTag,
  parseTemplate,
  type TagValues,
} from './message-template.js';
import { type Words, wordsFor } from './texts/index.js';

export const MESSAGE_KINDS = ['welcome', 'referral', 'admitted'] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

export const SUBJECT_MAX = 150;
export const BODY_MAX = 5_000;

export const isMessageKind = (value: string): value is MessageKind =>
  MESSAGE_KINDS.some((kind) => kind === value);

/** A message as it is kept: off by default, so a saved one is sent only once switched on. */
export interface Message {
  kind: MessageKind;
  subject: string;
  body: string;
  enabled: boolean;
  /** Null for a message never saved. */
  updated_at: string | null;
}

export interface MessageInput {
  subject: string;
  body: string;
  enabled: boolean;
}

/** Which part of a message a refusal is about, as every door names it. */
export type MessagePart = 'subject' | 'body';

/**
 * A message the waitlist may keep: a one-line subject of 1..150 characters and a body of
 * 1..5,000, each a template whose tags are known (the fixed list and the waitlist's fields).
 */
export function checkMessage(
  input: MessageInput,
  fieldKeys: readonly string[],
): Checked<MessageInput> | { ok: false; reason: string; part: MessagePart } {
  const { subject, body } = input;
  const refuse = (part: MessagePart, reason: string) => ({ ok: false as const, reason, part });
  if (subject.trim() === '') return refuse('subject', 'The subject is empty.');
  if (/[\r\n]/.test(subject)) return refuse('subject', 'The subject is one line: it has a line break.');
  if ([...subject].length > SUBJECT_MAX)
    return refuse('subject', `The subject has more than ${SUBJECT_MAX} characters.`);
  if (body.trim() === '') return refuse('body', 'The body is empty.');
  if ([...body].length > BODY_MAX) return refuse('body', `The body has more than ${BODY_MAX} characters.`);
  for (const [part, text] of [
    ['subject', subject],
    ['body', body],
  ] as const) {
    const parsed = parseTemplate(text, fieldKeys);
    if (!parsed.ok) return refuse(part, `The ${part}: ${parsed.reason}`);
  }
  return { ok: true, value: input };
}

/** What the tags of one subscriber's message are made of. */
export interface Recipient {
  email: string;
  position: number | null;
  referralCount: number;
  fields: FieldValues;
  /** Absent where the waitlist has no status page (referrals off) or no origin to link to. */
  statusUrl: string | undefined;
  referralLink: string | undefined;
}

/** The values of the merge tags for one recipient of one waitlist's message. */
export function tagValues(waitlistName: string, accessUrl: string, r: Recipient): TagValues {
  const values = new Map<MergeTag, string>([
    ['waitlist_name', waitlistName],
    ['email', r.email],
    ['position', r.position === null ? '' : String(r.position)],
    ['people_ahead', r.position === null ? '' : String(Math.max(0, r.position - 1))],
    ['referral_count', String(r.referralCount)],
    ['referral_link', r.referralLink ?? ''],
    ['status_url', r.statusUrl ?? ''],
    ['access_url', accessUrl],
  ]);
  for (const [key, value] of Object.entries(r.fields)) values.set(`fields.${key}`, String(value));
  return values;
}

/** The sample subscriber's status token: issued ones are 24 characters, so its links find nobody. */
export const SAMPLE_STATUS_TOKEN = 'SAMPLE';

/** The sample subscriber a preview shows: every tag with a value, each field with its key. */
export function sampleRecipient(fieldKeys: readonly string[], appUrl: string): Recipient {
  return {
    email: 'ada@example.com',
    position: 42,
    referralCount: 3,
    fields: Object.fromEntries(fieldKeys.map((key) => [key, `(${key})`])),
    statusUrl: `${appUrl}/s/${SAMPLE_STATUS_TOKEN}`,
    referralLink: 'https://example.com/?ref=SAMPLE',
  };
}

/** A message's mail, filled for one recipient: the subject on one line, the text, and the HTML made from it. */
export interface RenderedMessage {
  subject: string;
  text: string;
  html: string;
}

/** The field keys a template names: a field removed since it was saved is filled empty, not refused. */
const namedFields = (text: string) =>
  [...text.matchAll(/\{\{\s*fields\.([a-z][a-z0-9_]*)\s*\}\}/g)].map((m) => m[1] ?? '');

/**
 * The mail of a saved message for one recipient in their language; `unsubscribeUrl`, when given,
 * closes the text (welcome and referral: whoever gets them may stop them) with the line that says
 * so in their language, the operator's text staying as written (docs/languages.md#pages-and-mails).
 */
export function renderMessage(
  message: Pick<Message, 'subject' | 'body'>,
  values: TagValues,
  unsubscribeUrl?: string,
  words: Words = wordsFor('en'),
): RenderedMessage | undefined {
  const subject = parseTemplate(message.subject, namedFields(message.subject));
  const body = parseTemplate(message.body, namedFields(message.body));
  if (!subject.ok || !body.ok) return undefined;
  const filled = fill(body.value, values).replace(/\s+$/, '');
  const stop = unsubscribeUrl && words.say('stopEmails', { link: unsubscribeUrl });
  const text = stop ? `${filled}\n\n${stop}\n` : `${filled}\n`;
  return { subject: fillSubject(subject.value, values), text, html: htmlFromText(text, words) };
}

/** A message's mail as it goes out: the rendered parts and the headers that let its reader stop it. */
export interface MessageMail extends RenderedMessage {
  headers: Record<string, string>;
}

/**
 * The mail of one message for one recipient whose unsubscribe link is `unsubscribeUrl`, in their words: welcome
 * and referral end with the link in their text, and every message carries it as RFC 8058's
 * one-click List-Unsubscribe (docs/messages.md#unsubscribe). Undefined for a template that no
 * longer reads.
 */
export function messageMail(
  message: Pick<Message, 'kind' | 'subject' | 'body'>,
  values: TagValues,
  unsubscribeUrl: string,
  words: Words,
): MessageMail | undefined {
  const stopsIn = message.kind === 'admitted' ? undefined : unsubscribeUrl;
  const rendered = renderMessage(message, values, stopsIn, words);
  if (!rendered) return undefined;
  // RFC 8058: the link in angle brackets, and the header that says a POST to it is enough.
  const headers = {
    'List-Unsubscribe': `<${unsubscribeUrl}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  };
  return { ...rendered, headers };
}
