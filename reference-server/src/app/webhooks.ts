/**
 * Webhook endpoints of a tenant (docs/webhooks.md#endpoints): any operator of it may look at them and their
 * deliveries; admins add them (up to ENDPOINTS_PER_TENANT live ones, domain/fair-share.ts),
 * delete them, and send a delivery again. A new endpoint's signing secret is answered once.
 */
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '@waitlistkit/protocol';
import { checkWebhookUrl, resolvedVerdict } from '../domain/destinations.js';
import { ENDPOINTS_PER_TENANT } from '../domain/fair-share.js';
import { newId } from '../domain/ids.js';
import type { WebhookEndpoint } from '../domain/records.js';
import { newWebhookSecret } from '../domain/webhook-signature.js';
import type { DeliveryRow } from '../store/outbox.js';
import { type Acting, adminOnly, type Base, own, type Scope } from './guard.js';
import { conflict, invalid, notFound, ok, type Result, refuse } from './refusal.js';

/** Where webhooks may go: private destinations only when the operator allows them (docs/webhooks.md#destinations). */
export interface WebhookPolicy {
  allowPrivate: boolean;
  resolve: (host: string) => Promise<string[]>;
}

/** A delivery of an endpoint, with its attempts. */
export type Delivery = DeliveryRow;

const isEventType = (type: string): type is WebhookEventType => WEBHOOK_EVENT_TYPES.some((t) => t === type);

export class Webhooks {
  constructor(
    private readonly ctx: Base,
    private readonly policy: WebhookPolicy,
  ) {}

  /** The tenant's live endpoints, never their secrets. */
  list(scope: Scope): Promise<WebhookEndpoint[]> {
    return this.ctx.store.reads.webhooks.live([scope.tenantId]);
  }

  /** An endpoint of the scope's tenant, deleted ones too: their past deliveries stay readable. */
  async get(scope: Scope, webhookId: string): Promise<Result<WebhookEndpoint>> {
    const endpoint = own(scope, await this.ctx.store.reads.webhooks.get(webhookId));
    return endpoint ? ok(endpoint) : refuse(notFound('webhook endpoint', webhookId));
  }

  /** An endpoint of the scope's tenant with its deliveries, newest first. */
  async deliveries(
    scope: Scope,
    webhookId: string,
    state?: string,
  ): Promise<Result<{ endpoint: WebhookEndpoint; deliveries: Delivery[] }>> {
    const endpoint = await this.get(scope, webhookId);
    if (!endpoint.ok) return endpoint;
    const deliveries = await this.ctx.store.reads.outbox.deliveries(endpoint.value.id, state);
    return ok({ endpoint: endpoint.value, deliveries });
  }

  /** Adds an endpoint; its secret is in the answer, and nowhere else ever again. */
  async create(
    who: Acting,
    fields: { url: string; events: readonly string[]; waitlistId: string | undefined },
  ): Promise<Result<{ endpoint: WebhookEndpoint; secret: string }>> {
    const { store, clock } = this.ctx;
    const denied = await adminOnly(this.ctx, who, 'Only admins can create webhook endpoints.', () => ({
      action: 'webhook.create_refused',
    }));
    if (denied) return refuse(denied);
    const { allowPrivate, resolve } = this.policy;
    const checked = checkWebhookUrl(fields.url, allowPrivate);
    if (!checked.ok) return refuse(invalid(checked.reason, 'url'));
    const unreachable = resolvedVerdict(await resolve(checked.url.hostname), allowPrivate);
    if (unreachable) return refuse(invalid(unreachable, 'url'));
    const unknown = fields.events.find((type) => !isEventType(type));
    if (unknown !== undefined) {
      const known = WEBHOOK_EVENT_TYPES.join(', ');
      return refuse(invalid(`${JSON.stringify(unknown)} is not an event type: ${known}.`, 'events'));
    }
    if (fields.waitlistId !== undefined && !own(who, await store.reads.waitlists.get(fields.waitlistId))) {
      return refuse(notFound('waitlist', fields.waitlistId));
    }
    const secret = newWebhookSecret();
    return store.write(async (tx) => {
      const endpoint = await tx.webhooks.insert(
        {
          id: newId('webhook'),
          tenantId: who.tenantId,
          url: checked.url.href,
          secret,
          events: [...new Set(fields.events)],
          waitlistId: fields.waitlistId ?? null,
          createdBy: who.operator.id,
        },
        clock.now(),
        ENDPOINTS_PER_TENANT,
      );
      if (!endpoint) {
        return refuse(
          conflict(
            `Your organisation has ${ENDPOINTS_PER_TENANT} webhook endpoints, the most it may have: delete one before adding another.`,
          ),
        );
      }
      const details = { url: endpoint.url, events: endpoint.events, waitlist_id: endpoint.waitlist_id };
      await tx.activity.append(
        {
          tenantId: who.tenantId,
          actor: who.actor,
          action: 'webhook.created',
          subjectId: endpoint.id,
          details,
        },
        clock.now(),
      );
      return ok({ endpoint, secret });
    });
  }

  /** Deletes an endpoint of the tenant: its pending deliveries fail, its past ones stay readable. */
  async delete(who: Acting, webhookId: string): Promise<Result<WebhookEndpoint>> {
    const { store, clock } = this.ctx;
    const denied = await adminOnly(this.ctx, who, 'Only admins can change webhook endpoints.', async () => {
      const endpoint = own(who, await store.reads.webhooks.get(webhookId));
      return endpoint
        ? { action: 'webhook.delete_refused', subjectId: endpoint.id, details: { url: endpoint.url } }
        : { action: 'webhook.delete_refused' };
    });
    if (denied) return refuse(denied);
    const endpoint = await this.get(who, webhookId);
    if (!endpoint.ok) return endpoint;
    const { id, url } = endpoint.value;
    return store.write(async (tx) => {
      await tx.webhooks.delete(id, clock.now());
      await tx.activity.append(
        {
          tenantId: who.tenantId,
          actor: who.actor,
          action: 'webhook.deleted',
          subjectId: id,
          details: { url },
        },
        clock.now(),
      );
      const deleted = await tx.webhooks.get(id);
      return deleted ? ok(deleted) : refuse(notFound('webhook endpoint', webhookId));
    });
  }

  /**
   * Sends a delivery of the tenant's again, unless its endpoint was deleted. Answers the delivery,
   * pending again (undefined when it is no longer among its endpoint's recent ones).
   */
  async resend(who: Acting, deliveryId: string): Promise<Result<Delivery | undefined>> {
    const { store, clock } = this.ctx;
    const endpointOf = async () => {
      const endpointId = await store.reads.outbox.endpointOf(deliveryId);
      return endpointId === undefined ? undefined : own(who, await store.reads.webhooks.get(endpointId));
    };
    const denied = await adminOnly(this.ctx, who, 'Only admins can change webhook endpoints.', async () => {
      const endpoint = await endpointOf();
      return endpoint
        ? { action: 'webhook.resend_refused', subjectId: deliveryId, details: { webhook_id: endpoint.id } }
        : { action: 'webhook.resend_refused' };
    });
    if (denied) return refuse(denied);
    const endpoint = await endpointOf();
    if (!endpoint) return refuse(notFound('delivery', deliveryId));
    return store.write(async (tx) => {
      // The worker sends whatever is pending, to the address the endpoint had: checked in the
      // write, so a deletion committed just before is seen.
      if ((await tx.webhooks.get(endpoint.id))?.state !== 'active') {
        return refuse(conflict('The endpoint was deleted; nothing more is sent to it.'));
      }
      await tx.outbox.resend(deliveryId, clock.now());
      const details = { webhook_id: endpoint.id };
      await tx.activity.append(
        {
          tenantId: who.tenantId,
          actor: who.actor,
          action: 'webhook.resent',
          subjectId: deliveryId,
          details,
        },
        clock.now(),
      );
      // Read in the write: the answer is the state the resend made, not what the worker made of
      // it since (it may send at once).
      return ok((await tx.outbox.deliveries(endpoint.id)).find((d) => d.id === deliveryId));
    });
  }
}
