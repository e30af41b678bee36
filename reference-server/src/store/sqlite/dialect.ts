/** SQLite's side of the statements both stores share (see ../dialect.ts). */
import type { Dialect } from '../dialect.js';

const pairs = (fields: Readonly<Record<string, string>>) =>
  Object.entries(fields)
    .map(([name, expression]) => `'${name}', ${expression}`)
    .join(', ');

export const sqlite: Dialect = {
  name: 'sqlite',
  concurrentWriters: false,
  true: '1',
  false: '0',
  anyOf: (column, _type, param = '?') => `${column} IN (SELECT value FROM json_each(${param}))`,
  rows: (alias, columns, param = '?') =>
    `(SELECT ${Object.keys(columns)
      .map((name, i) => `value ->> ${i} AS ${name}`)
      .join(', ')} FROM json_each(${param})) AS ${alias}`,
  lock: () => '',
  indexedBy: (index) => ` INDEXED BY ${index}`,
  unindexed: (column) => `+${column}`,
  jsonArrayOf: (fields, from, order) =>
    `(SELECT json_group_array(json_object(${pairs(fields)}) ORDER BY ${order}) FROM ${from})`,
  // `+t.target`: a plain value, without the union column's affinity, is what lets SQLite look
  // each destination up in the expression index instead of scanning it. A destination's first
  // `perEndpoint` are read by index, then cut to what it may still take (its `room`): SQLite's
  // LIMIT cannot read a column of the outer query.
  dueDeliveries: `SELECT id, channel, tenant_id FROM (
        SELECT d.id, d.channel, d.tenant_id, d.next_at, ?3 - coalesce(u.value, 0) AS room,
               row_number() OVER (PARTITION BY t.target ORDER BY d.next_at, d.id) AS n
          FROM (SELECT id AS target FROM webhook_endpoints WHERE state = 'active' UNION ALL SELECT 'mail') AS t
          LEFT JOIN json_each(?2) AS u ON u.key = t.target
          JOIN deliveries AS d ON d.id IN (
            SELECT id FROM deliveries INDEXED BY deliveries_pending
             WHERE coalesce(endpoint_id, channel) = +t.target AND state = 'pending' AND next_at <= ?1
               AND (lease_until IS NULL OR lease_until <= ?1)
             ORDER BY next_at LIMIT ?3)
         WHERE coalesce(u.value, 0) < ?3)
      WHERE n <= room ORDER BY next_at, id`,
};
