/** PostgreSQL's side of the statements both stores share (see ../dialect.ts). */
import type { Dialect } from '../dialect.js';

const pairs = (fields: Readonly<Record<string, string>>) =>
  Object.entries(fields)
    .map(([name, expression]) => `'${name}', ${expression}`)
    .join(', ');

export const postgres: Dialect = {
  name: 'postgres',
  concurrentWriters: true,
  true: 'true',
  false: 'false',
  anyOf: (column, type = 'text', param = '?') => `${column} = ANY (CAST(${param} AS ${type}[]))`,
  rows: (alias, columns, param = '?') =>
    `(SELECT ${Object.entries(columns)
      .map(([name, type], i) =>
        type === 'text' ? `r ->> ${i} AS ${name}` : `CAST(r ->> ${i} AS ${type}) AS ${name}`,
      )
      .join(', ')} FROM json_array_elements(CAST(${param} AS json)) AS r) AS ${alias}`,
  lock: (clause) => ` FOR ${clause}`,
  indexedBy: () => '',
  unindexed: (column) => column,
  jsonArrayOf: (fields, from, order) =>
    `(SELECT coalesce(json_agg(json_build_object(${pairs(fields)}) ORDER BY ${order}), '[]')::text FROM ${from})`,
  // The first few due of each destination found on the index, as many as it has room for, never
  // the whole backlog. Rows another worker is claiming right now are skipped, not waited for;
  // those read here stay locked until this write commits, so the claim that follows finds them
  // as they were.
  dueDeliveries: `SELECT d.id, d.channel, d.tenant_id
    FROM (SELECT a.target, $3::int - coalesce(u.n::int, 0) AS room
            FROM (SELECT id AS target FROM webhook_endpoints WHERE state = 'active' UNION ALL SELECT 'mail') AS a
            LEFT JOIN jsonb_each_text($2::jsonb) AS u (target, n) ON u.target = a.target) AS t
    CROSS JOIN LATERAL (
      SELECT id, channel, tenant_id, next_at FROM deliveries
       WHERE coalesce(endpoint_id, channel) = t.target AND state = 'pending' AND next_at <= $1
         AND (lease_until IS NULL OR lease_until <= $1)
       ORDER BY next_at LIMIT greatest(t.room, 0)
       FOR UPDATE SKIP LOCKED) AS d
   ORDER BY d.next_at, d.id`,
};
