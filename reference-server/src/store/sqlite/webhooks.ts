import type { WebhookEndpoint } from '../../domain/records.js';
import { ENDPOINT_COLUMNS, type EndpointRow, endpointFromRow, newEndpoint } from '../endpoint-rows.js';
import type { NewEndpoint } from '../store.js';
import { isoNow } from '../time.js';
import type { Connection } from './connection.js';

/** Adds the endpoint, unless its tenant has `most` live ones already (the single writer keeps the count true). */
export async function insertEndpoint(
  db: Connection,
  fields: NewEndpoint,
  now: number,
  most: number,
): Promise<WebhookEndpoint | undefined> {
  const live = await db.get<{ n: number }>(
    "SELECT count(*) AS n FROM webhook_endpoints WHERE tenant_id = ? AND state = 'active'",
    [fields.tenantId],
  );
  if ((live?.n ?? 0) >= most) return undefined;
  const endpoint = newEndpoint(fields, now);
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
}

export async function getEndpoint(db: Connection, id: string): Promise<WebhookEndpoint | undefined> {
  const row = await db.get<EndpointRow>(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = ?`, [
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
      WHERE state = 'active' AND tenant_id IN (SELECT value FROM json_each(?)) ORDER BY created_at, id`,
    [JSON.stringify(tenantIds)],
  );
  return rows.map(endpointFromRow);
}

export async function deleteEndpoint(db: Connection, id: string, now: number): Promise<void> {
  await db.run(
    "UPDATE webhook_endpoints SET state = 'deleted', deleted_at = ? WHERE id = ? AND state = 'active'",
    [isoNow(now), id],
  );
  // Nothing more goes to a deleted endpoint; its past deliveries stay readable.
  await db.run("UPDATE deliveries SET state = 'failed' WHERE endpoint_id = ? AND state = 'pending'", [id]);
}
