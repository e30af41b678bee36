/**
 * A webhook endpoint's row as both adapters read it (its events kept as JSON text), how it
 * becomes the API's `WebhookEndpoint`, and the endpoint an insert stores.
 */
import type { WebhookEndpoint } from '../domain/records.js';
import type { NewEndpoint } from './store.js';
import { isoNow } from './time.js';

export interface EndpointRow extends Omit<WebhookEndpoint, 'events'> {
  events: string;
}

export const ENDPOINT_COLUMNS = 'id, tenant_id, url, events, waitlist_id, state, created_at, deleted_at';

export const endpointFromRow = (row: EndpointRow): WebhookEndpoint => ({
  ...row,
  events: JSON.parse(row.events) as string[],
});

/** The endpoint `insertEndpoint` stores: active. */
export function newEndpoint(fields: NewEndpoint, now: number): WebhookEndpoint {
  return {
    id: fields.id,
    tenant_id: fields.tenantId,
    url: fields.url,
    events: [...fields.events],
    waitlist_id: fields.waitlistId,
    state: 'active',
    created_at: isoNow(now),
    deleted_at: null,
  };
}
