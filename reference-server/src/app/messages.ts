/**
 * A waitlist's messages (docs/messages.md): admins save them, anyone of the tenant looks at one
 * with its preview for a sample subscriber. Saving checks the templates against the waitlist's
 * fields now; the mail itself is queued by the store with its cause and rendered by the outbox.
 */

import type { Language } from '@waitlistkit/protocol';
import { chooseText, isOn, NEUTRAL, type TextFrom } from '../domain/message-choice.js';
import type { TagValues } from '../domain/message-template.js';
import {
  checkMessage,
  type Message,
  type MessageInput,
  type MessageKind,
  type MessageMail,
  messageMail,
  type RenderedMessage,
  SAMPLE_STATUS_TOKEN,
  sampleRecipient,
  tagValues,
} from '../domain/messages.js';
import type { Waitlist } from '../domain/records.js';
import { type Words, wordsFor } from '../domain/texts/index.js';
import { type Acting, adminOnly, type Base, own, type Scope } from './guard.js';
import { invalid, notFound, ok, type Result, refuse } from './refusal.js';
import { unsubscribeUrl } from './unsubscribe.js';

/**
 * A message with what it reads like for the sample subscriber; a message never saved is off and
 * empty. `lang` is '' for the waitlist's own version; shown for a language, it is the text a
 * subscriber in that language gets, and `from` says whose (docs/messages.md#languages).
 */
export interface ShownMessage extends Message {
  lang: string;
  from?: TextFrom;
  /** Shown (not saved): the tags of the kind's saved versions, '' the waitlist's own first. */
  versions?: string[];
  preview: RenderedMessage | null;
}

/** A message's text as an editor holds it, saved or not. */
export type Draft = Pick<Message, 'kind' | 'subject' | 'body'>;

const unsaved = (kind: MessageKind): Message => ({
  kind,
  subject: '',
  body: '',
  enabled: false,
  updated_at: null,
});

/**
 * A message's mail on a waitlist for the sample subscriber, as the outbox would send it: what
 * the preview shows and a test mail carries. Its unsubscribe link is the sample's, which finds nobody.
 */
export function sampleMail(
  waitlist: Waitlist,
  draft: Draft,
  appUrl: string,
  words: Words = wordsFor(waitlist.settings.default_lang),
): MessageMail | undefined {
  const unsubscribe = unsubscribeUrl(appUrl, SAMPLE_STATUS_TOKEN);
  return messageMail(draft, sampleValues(waitlist, appUrl), unsubscribe, words);
}

/** What each merge tag of the waitlist becomes for the sample subscriber. */
export function sampleValues(waitlist: Waitlist, appUrl: string): TagValues {
  const keys = waitlist.settings.fields.map((f) => f.key);
  return tagValues(waitlist.name, waitlist.settings.access_url, sampleRecipient(keys, appUrl));
}

/**
 * The preview of a message on a waitlist, for the sample subscriber speaking `words` (the
 * waitlist's default language unless given); none while a part is empty.
 */
export function previewOf(
  waitlist: Waitlist,
  draft: Draft,
  appUrl: string,
  words?: Words,
): RenderedMessage | null {
  if (draft.subject === '' || draft.body === '') return null;
  const mail = sampleMail(waitlist, draft, appUrl, words);
  return mail ? { subject: mail.subject, text: mail.text, html: mail.html } : null;
}

/** The draft when the waitlist may keep it, else why not, naming the part (`subject` or `body`) as `field`. */
export function checkDraft(waitlist: Waitlist, draft: Draft): Result<Draft> {
  const checked = checkMessage(
    { subject: draft.subject, body: draft.body, enabled: false },
    waitlist.settings.fields.map((f) => f.key),
  );
  if (!checked.ok) return refuse(invalid(checked.reason, 'part' in checked ? checked.part : 'body'));
  return ok(draft);
}

export class Messages {
  constructor(private readonly ctx: Base & { urls: { readonly appUrl: string } }) {}

  private async waitlistOf(scope: Scope, waitlistId: string): Promise<Result<Waitlist>> {
    const waitlist = own(scope, await this.ctx.store.reads.waitlists.get(waitlistId));
    return waitlist ? ok(waitlist) : refuse(notFound('waitlist', waitlistId));
  }

  /** What a draft would read like, saving nothing; refused as saving it would be. */
  /** The preview of a draft for the sample subscriber, speaking `lang` (default: the waitlist's default language). */
  async preview(
    scope: Scope,
    waitlistId: string,
    draft: Draft,
    lang?: Language,
  ): Promise<Result<RenderedMessage>> {
    const waitlist = await this.waitlistOf(scope, waitlistId);
    if (!waitlist.ok) return waitlist;
    const checked = checkDraft(waitlist.value, draft);
    if (!checked.ok) return checked;
    const words = lang === undefined ? undefined : wordsFor(lang);
    const preview = previewOf(waitlist.value, draft, this.ctx.urls.appUrl, words);
    // Never so: a draft that passed its check renders.
    return preview ? ok(preview) : refuse(invalid('The message cannot be rendered.', 'body'));
  }

  /**
   * The waitlist's own version of a message; or, given a language, what a subscriber in it gets:
   * the version in it, else the waitlist's own in its default language, else our default
   * (domain/message-choice.ts).
   */
  async show(
    scope: Scope,
    waitlistId: string,
    kind: MessageKind,
    lang?: Language,
  ): Promise<Result<ShownMessage>> {
    const waitlist = await this.waitlistOf(scope, waitlistId);
    if (!waitlist.ok) return waitlist;
    const { appUrl } = this.ctx.urls;
    const versions = await this.ctx.store.reads.messages.versions(waitlistId, kind);
    const saved = [...versions.keys()].sort();
    if (lang === undefined) {
      // On or off is the message's, whichever versions are saved (domain/message-choice.ts).
      const message = { ...(versions.get(NEUTRAL) ?? unsaved(kind)), enabled: isOn(versions) };
      const preview = previewOf(waitlist.value, message, appUrl);
      return ok({ ...message, lang: NEUTRAL, versions: saved, preview });
    }
    const { subject, body, from } = chooseText(kind, lang, versions, waitlist.value.settings.default_lang);
    const shown = {
      kind,
      subject,
      body,
      enabled: isOn(versions),
      updated_at: versions.get(lang)?.updated_at ?? null,
    };
    const preview = previewOf(waitlist.value, shown, appUrl, wordsFor(lang));
    return ok({ ...shown, lang, from, versions: saved, preview });
  }

  async set(
    who: Acting,
    waitlistId: string,
    kind: MessageKind,
    change: Omit<MessageInput, 'enabled'> & { enabled?: boolean | undefined },
    lang: Language | typeof NEUTRAL = NEUTRAL,
  ): Promise<Result<ShownMessage>> {
    const { store, clock } = this.ctx;
    const denied = await adminOnly(this.ctx, who, 'Only admins can change messages.', async () => {
      const waitlist = own(who, await store.reads.waitlists.get(waitlistId));
      return waitlist
        ? { action: 'message.update_refused', subjectId: waitlist.id, details: { kind } }
        : { action: 'message.update_refused' };
    });
    if (denied) return refuse(denied);
    const waitlist = await this.waitlistOf(who, waitlistId);
    if (!waitlist.ok) return waitlist;
    // The switch is the kind's, whichever version is saved (domain/message-choice.ts).
    const kept = isOn(await store.reads.messages.versions(waitlistId, kind));
    const input = { ...change, enabled: change.enabled ?? kept };
    const checked = checkDraft(waitlist.value, { kind, ...input });
    if (!checked.ok) return checked;
    const saved = await store.write(async (tx) => {
      const message = await tx.messages.put(waitlistId, kind, lang, input, clock.now());
      await tx.activity.append(
        {
          tenantId: who.tenantId,
          actor: who.actor,
          action: 'message.updated',
          subjectId: waitlistId,
          details:
            lang === NEUTRAL ? { kind, enabled: input.enabled } : { kind, lang, enabled: input.enabled },
        },
        clock.now(),
      );
      return message;
    });
    const words = lang === NEUTRAL ? undefined : wordsFor(lang);
    return ok({ ...saved, lang, preview: previewOf(waitlist.value, saved, this.ctx.urls.appUrl, words) });
  }
}
