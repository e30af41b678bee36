/**
 * A waitlist's messages (docs/messages.md): admins save them, anyone of the tenant looks at one
 * with its preview for a sample subscriber. Saving checks the templates against the waitlist's
 * fields now; the mail itself is queued by the store with its cause and rendered by the outbox.
 */
import {
  checkMessage,
  type Message,
  type MessageInput,
  type MessageKind,
  type RenderedMessage,
  renderMessage,
  sampleRecipient,
  tagValues,
} from '../domain/messages.js';
import type { Waitlist } from '../domain/records.js';
import { type Acting, adminOnly, type Base, own, type Scope } from './guard.js';
import { invalid, notFound, ok, type Result, refuse } from './refusal.js';

/** A message with what it reads like for the sample subscriber; a message never saved is off and empty. */
export interface ShownMessage extends Message {
  preview: RenderedMessage | null;
}

const unsaved = (kind: MessageKind): Message => ({
  kind,
  subject: '',
  body: '',
  enabled: false,
  updated_at: null,
});

/** The preview of a message on a waitlist, for the sample subscriber. */
export function previewOf(
  waitlist: Waitlist,
  message: Pick<Message, 'subject' | 'body'>,
  appUrl: string,
): RenderedMessage | null {
  if (message.subject === '' || message.body === '') return null;
  const keys = waitlist.settings.fields.map((f) => f.key);
  const values = tagValues(waitlist.name, waitlist.settings.access_url, sampleRecipient(keys, appUrl));
  return renderMessage(message, values) ?? null;
}

export class Messages {
  constructor(private readonly ctx: Base & { appUrl: string }) {}

  private async waitlistOf(scope: Scope, waitlistId: string): Promise<Result<Waitlist>> {
    const waitlist = own(scope, await this.ctx.store.reads.waitlists.get(waitlistId));
    return waitlist ? ok(waitlist) : refuse(notFound('waitlist', waitlistId));
  }

  async show(scope: Scope, waitlistId: string, kind: MessageKind): Promise<Result<ShownMessage>> {
    const waitlist = await this.waitlistOf(scope, waitlistId);
    if (!waitlist.ok) return waitlist;
    const message = (await this.ctx.store.reads.messages.get(waitlistId, kind)) ?? unsaved(kind);
    return ok({ ...message, preview: previewOf(waitlist.value, message, this.ctx.appUrl) });
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
    const checked = checkMessage(
      input,
      waitlist.value.settings.fields.map((f) => f.key),
    );
    if (!checked.ok) return refuse(invalid(checked.reason, 'part' in checked ? checked.part : 'body'));
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
    return ok({ ...saved, preview: previewOf(waitlist.value, saved, this.ctx.appUrl) });
  }
}
