/** Webhook endpoints (docs/webhooks.md#endpoints), their events kept as JSON text. */
import type { WebhookEndpoint } from '../../domain/records.js';
import type { Db } from '../db.js';
import { type Dialect, perDialect } from '../dialect.js';
import type { WebhookEndpoints } from '../store.js';
import { isoNow } from '../time.js';
import { lockRow } from './locks.js';

type EndpointRow = Omit<WebhookEndpoint, 'events'> & { events: string };

const ENDPOINT_COLUMNS = 'id, tenant_id, url, events, waitlist_id, state, created_at, deleted_at';

const endpointFromRow = (row: EndpointRow): WebhookEndpoint => ({
  ...row,
  events: JSON.parse(row.events) as string[],
});

const LIVE = perDialect(
  (d) => `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints
  WHERE state = 'active' AND ${d.anyOf('tenant_id')} ORDER BY created_at, id`,
);

export function webhooksOn(db: Db, d: Dialect): WebhookEndpoints {
  return {
    // The tenant's row is locked first, so two adds at once count one after the other.
    async insert(fields, now, most) {
      await lockRow(db, d, 'tenants', fields.tenantId);
      const live = await db.get<{ n: number }>(
        "SELECT count(*) AS n FROM webhook_endpoints WHERE tenant_id = ? AND state = 'active'",
        [fields.tenantId],
      );
      if ((live?.n ?? 0) >= most) return undefined;
      const endpoint: WebhookEndpoint = {
        id: fields.id,
        tenant_id: fields.tenantId,
        url: fields.url,
        events: [...fields.events],
        waitlist_id: fields.waitlistId,
        state: 'active',
        created_at: isoNow(now),
        deleted_at: null,
      };
      await db.run(
        `INSERT INTO webhook_endpoints (id, tenant_id, url, secret, events, waitlist_id, state, created_at, created_by)
         VALUES (?, ?, ?, ?, ?, ?, 'active', ?, ?)`,
        [
          endpoint.id,
          fields.tenantId,
          fields.url,
          fields.secret,
          JSON.stringify(endpoint.events),
          fields.waitlistId,
          endpoint.created_at,
          fields.createdBy,
        ],
      );
      return endpoint;
    },
    async get(id) {
      const row = await db.get<EndpointRow>(
        `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = ?`,
        [id],
      );
      return row && endpointFromRow(row);
    },
    async live(tenantIds) {
      return (await db.all<EndpointRow>(LIVE(d), [tenantIds])).map(endpointFromRow);
    },
    async delete(id, now) {
      await db.run(
        "UPDATE webhook_endpoints SET state = 'deleted', deleted_at = ? WHERE id = ? AND state = 'active'",
        [isoNow(now), id],
      );
      // Nothing more goes to a deleted endpoint; its past deliveries stay readable.
      await db.run("UPDATE deliveries SET state = 'failed' WHERE endpoint_id = ? AND state = 'pending'", [
        id,
      ]);
    },
  };
}
