import type { WebhookEndpoint } from '../../domain/records.js';
import { ENDPOINT_COLUMNS, type EndpointRow, endpointFromRow, newEndpoint } from '../endpoint-rows.js';
import type { NewEndpoint } from '../store.js';
import { isoNow } from '../time.js';
import type { Connection } from './connection.js';

/**
 * Adds the endpoint, unless its tenant has `most` live ones already. The tenant's row is locked
 * first, so two adds at once count one after the other (NO KEY: rows that merely refer to the
 * tenant are not held up).
 */
export async function insertEndpoint(
  db: Connection,
  fields: NewEndpoint,
  now: number,
  most: number,
): Promise<WebhookEndpoint | undefined> {
  await db.run('SELECT 1 FROM tenants WHERE id = $1 FOR NO KEY UPDATE', [fields.tenantId]);
  const live = await db.get<{ n: number }>(
    "SELECT count(*)::int AS n FROM webhook_endpoints WHERE tenant_id = $1 AND state = 'active'",
    [fields.tenantId],
  );
  if ((live?.n ?? 0) >= most) return undefined;
  const endpoint = newEndpoint(fields, now);
  await db.run(
    `INSERT INTO webhook_endpoints (id, tenant_id, url, secret, events, waitlist_id, state, created_at, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, 'active', $7, $8)`,
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
}

export async function getEndpoint(db: Connection, id: string): Promise<WebhookEndpoint | undefined> {
  const row = await db.get<EndpointRow>(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = $1`, [
    id,
  ]);
  return row && endpointFromRow(row);
}

/** The tenant's live endpoints; with `tenantIds` of several, all of theirs. */
export async function liveEndpoints(
  db: Connection,
  tenantIds: readonly string[],
): Promise<WebhookEndpoint[]> {
  const rows = await db.all<EndpointRow>(
    `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints
      WHERE state = 'active' AND tenant_id = ANY ($1::text[]) ORDER BY created_at, id`,
    [tenantIds],
  );
  return rows.map(endpointFromRow);
}

export async function deleteEndpoint(db: Connection, id: string, now: number): Promise<void> {
  await db.run(
    "UPDATE webhook_endpoints SET state = 'deleted', deleted_at = $1 WHERE id = $2 AND state = 'active'",
    [isoNow(now), id],
  );
  // Nothing more goes to a deleted endpoint; its past deliveries stay readable.
  await db.run("UPDATE deliveries SET state = 'failed' WHERE endpoint_id = $1 AND state = 'pending'", [id]);
}
