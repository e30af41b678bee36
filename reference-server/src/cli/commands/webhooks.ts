/** Webhook endpoints and their deliveries (docs/webhooks.md#endpoints), changed as an admin operator. */
import { ok } from '../../app/refusal.js';
import type { WebhookEndpoint } from '../../domain/records.js';
import { asOperator, type Command, idOption, inScope, optionalStr, shown, str } from '../command.js';

/** What a webhook endpoint is shown as: never its secret. */
const webhookJson = (w: WebhookEndpoint) => ({
  id: w.id,
  url: w.url,
  events: w.events,
  waitlist_id: w.waitlist_id,
  state: w.state,
  created_at: w.created_at,
  deleted_at: w.deleted_at,
});

const eventType = (value: string) => value;

export const WEBHOOK_COMMANDS: Command[] = [
  {
    name: 'webhook create',
    summary: 'create a webhook endpoint as an admin; prints its secret, the only time it is shown',
    options: [
      idOption('operator', 'operator acting', 'op_'),
      {
        name: 'url',
        kind: 'string',
        placeholder: 'URL',
        required: true,
        maxLength: 2000,
        description: 'https URL to POST events to',
      },
      {
        name: 'events',
        kind: 'list',
        placeholder: 'a,b',
        item: eventType,
        description: 'event types to send (default: all)',
      },
      {
        name: 'waitlist',
        kind: 'string',
        placeholder: 'wl_…',
        maxLength: 64,
        description: 'only events of this waitlist',
      },
    ],
    run: (o, context) =>
      asOperator(o, context, async ({ webhooks }, who) => {
        const fields = {
          url: str(o, 'url'),
          events: (o.events as string[] | undefined) ?? [],
          waitlistId: optionalStr(o, 'waitlist'),
        };
        return shown(await webhooks.create(who, fields), ({ endpoint, secret }) => ({
          ...webhookJson(endpoint),
          secret,
        }));
      }),
  },
  {
    name: 'webhook list',
    summary: "list a tenant's webhook endpoints (never their secrets)",
    options: [idOption('tenant', 'tenant', 'ten_')],
    run: (o, context) =>
      inScope({ tenant: str(o, 'tenant') }, context, async ({ webhooks }, scope) =>
        ok({ items: (await webhooks.list(scope)).map(webhookJson) }),
      ),
  },
  {
    name: 'webhook delete',
    summary: 'delete a webhook endpoint as an admin (nothing more is sent to it)',
    options: [idOption('operator', 'operator acting', 'op_'), idOption('webhook', 'webhook endpoint', 'wh_')],
    run: (o, context) =>
      asOperator(o, context, async ({ webhooks }, who) =>
        shown(await webhooks.delete(who, str(o, 'webhook')), webhookJson),
      ),
  },
  {
    name: 'webhook deliveries',
    summary: "an endpoint's deliveries with their attempts, newest first",
    options: [
      idOption('webhook', 'webhook endpoint', 'wh_'),
      {
        name: 'state',
        kind: 'enum',
        values: ['pending', 'failed', 'delivered'],
        description: 'only deliveries in this state',
      },
    ],
    run: (o, context) =>
      inScope({ webhook: str(o, 'webhook') }, context, async ({ webhooks }, scope) =>
        shown(await webhooks.deliveries(scope, str(o, 'webhook'), optionalStr(o, 'state')), (found) => ({
          items: found.deliveries,
        })),
      ),
  },
  {
    name: 'webhook resend',
    summary: 'send a delivery again as an admin',
    options: [idOption('operator', 'operator acting', 'op_'), idOption('delivery', 'delivery', 'dlv_')],
    run: (o, context) =>
      asOperator(o, context, async ({ webhooks }, who) => webhooks.resend(who, str(o, 'delivery'))),
  },
];
