/**
 * A waitlist's messages (docs/messages.md): admins save them, anyone of the tenant looks at one
 * with its preview for a sample subscriber. Saving checks the templates against the waitlist's
 * fields now; the mail itself is queued by the store with its cause and rendered by the outbox.
 */

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
import { type Acting, adminOnly, type Base, own, type Scope } from './guard.js';
import { invalid, notFound, ok, type Result, refuse } from './refusal.js';
import { unsubscribeUrl } from './unsubscribe.js';

/** A message with what it reads like for the sample subscriber; a message never saved is off and empty. */
export interface ShownMessage extends Message {
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
export function sampleMail(waitlist: Waitlist, draft: Draft, appUrl: string): MessageMail | undefined {
  return messageMail(draft, sampleValues(waitlist, appUrl), unsubscribeUrl(appUrl, SAMPLE_STATUS_TOKEN));
}

/** What each merge tag of the waitlist becomes for the sample subscriber. */
export function sampleValues(waitlist: Waitlist, appUrl: string): TagValues {
  const keys = waitlist.settings.fields.map((f) => f.key);
  return tagValues(waitlist.name, waitlist.settings.access_url, sampleRecipient(keys, appUrl));
}

/** The preview of a message on a waitlist, for the sample subscriber; none while a part is empty. */
export function previewOf(waitlist: Waitlist, draft: Draft, appUrl: string): RenderedMessage | null {
  if (draft.subject === '' || draft.body === '') return null;
  const mail = sampleMail(waitlist, draft, appUrl);
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
  async preview(scope: Scope, waitlistId: string, draft: Draft): Promise<Result<RenderedMessage>> {
    const waitlist = await this.waitlistOf(scope, waitlistId);
    if (!waitlist.ok) return waitlist;
    const checked = checkDraft(waitlist.value, draft);
    if (!checked.ok) return checked;
    const preview = previewOf(waitlist.value, draft, this.ctx.urls.appUrl);
    // Never so: a draft that passed its check renders.
    return preview ? ok(preview) : refuse(invalid('The message cannot be rendered.', 'body'));
  }

  async show(scope: Scope, waitlistId: string, kind: MessageKind): Promise<Result<ShownMessage>> {
    const waitlist = await this.waitlistOf(scope, waitlistId);
    if (!waitlist.ok) return waitlist;
    const message = (await this.ctx.store.reads.messages.get(waitlistId, kind)) ?? unsaved(kind);
    return ok({ ...message, preview: previewOf(waitlist.value, message, this.ctx.urls.appUrl) });
  }

  async set(
    who: Acting,
    waitlistId: string,
    kind: MessageKind,
    change: Omit<MessageInput, 'enabled'> & { enabled?: boolean | undefined },
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
    const kept = await store.reads.messages.get(waitlistId, kind);
    const input = { ...change, enabled: change.enabled ?? kept?.enabled ?? false };
    const checked = checkDraft(waitlist.value, { kind, ...input });
    if (!checked.ok) return checked;
    const saved = await store.write(async (tx) => {
      const message = await tx.messages.put(waitlistId, kind, input, clock.now());
      await tx.activity.append(
        {
          tenantId: who.tenantId,
          actor: who.actor,
          action: 'message.updated',
          subjectId: waitlistId,
          details: { kind, enabled: input.enabled },
        },
        clock.now(),
      );
      return message;
    });
    return ok({ ...saved, preview: previewOf(waitlist.value, saved, this.ctx.urls.appUrl) });
  }
}
