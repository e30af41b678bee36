/**
 * Where a request's time goes on PostgreSQL, statement by statement: pg_stat_statements (loaded by
 * startCluster({ statements: true })) times every statement the server runs, as PostgreSQL plans
 * and executes it. Reset before rounds of one request and read after them, it says which of the
 * server's own statements that request ran, how often, and how long each took inside the
 * database; what is left of the request's time over HTTP is round trips, the driver and the server.
 */

import { withClient } from './postgres.js';
import { fmtMs, median } from './stats.js';
import type { Row, Section } from './table.js';

export interface StatementTime {
  /** The statement as pg_stat_statements normalises it (its constants as $n). */
  query: string;
  calls: number;
  /** Mean milliseconds executing it, and planning it. */
  execMs: number;
  planMs: number;
}

/** Forgets what was counted so far, in every database of the cluster. */
export function resetStatementTimes(url: string): Promise<void> {
  return withClient(url, async (client) => {
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    await client.query('SELECT pg_stat_statements_reset()');
  });
}

/** The statements run in `url`'s database since the reset, the longest in all first. */
export function statementTimes(url: string): Promise<StatementTime[]> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<{ query: string; calls: string; exec: number; plan: number }>(
      `SELECT query, calls, mean_exec_time AS exec, mean_plan_time AS plan FROM pg_stat_statements
        WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
          AND query NOT LIKE '%pg_stat_statements%'
        ORDER BY total_exec_time + total_plan_time DESC`,
    );
    return rows.map((r) => ({ query: r.query, calls: Number(r.calls), execMs: r.exec, planMs: r.plan }));
  });
}

/** The statements of `requests` requests, and their p50 over HTTP. */
export interface RequestStatements {
  label: string;
  requests: number;
  http: number[];
  statements: StatementTime[];
}

const signedMs = (ms: number) => `${ms < 0 ? '−' : '+'}${fmtMs(Math.abs(ms))}`;

/** A statement's text on one line, cut to what tells it apart. */
const shortQuery = (query: string) => {
  const line = query.replace(/\s+/g, ' ').trim();
  return line.length > 110 ? `${line.slice(0, 107)}…` : line;
};

/**
 * Each state's statements side by side (one column pair per state), with per request: the calls,
 * and the mean time in the database (execution and planning); then the sum per request beside
 * the request's p50 over HTTP. Statements run fewer times than once per two requests are left out
 * (the server's background work, not the request's).
 */
export function statementsSection(
  title: string,
  intro: string,
  states: readonly RequestStatements[],
): Section {
  const perRequest = (s: RequestStatements) =>
    new Map(
      s.statements
        .filter((t) => t.calls * 2 >= s.requests)
        .map((t) => [t.query, { calls: t.calls / s.requests, ms: t.execMs + t.planMs, plan: t.planMs }]),
    );
  const maps = states.map(perRequest);
  const queries = [...new Set(maps.flatMap((m) => [...m.keys()]))];
  const cells = (query: string) =>
    Object.fromEntries(
      maps.flatMap((m, i) => {
        const t = m.get(query);
        return [
          [`calls${i}`, t ? t.calls.toFixed(t.calls % 1 === 0 ? 0 : 2) : ''],
          [`ms${i}`, t ? `${fmtMs(t.ms)} (plan ${fmtMs(t.plan)})` : ''],
        ];
      }),
    );
  const sums = maps.map((m) => [...m.values()].reduce((sum, t) => sum + t.calls * t.ms, 0));
  const rows: Row[] = [
    ...queries.map((query) => ({ name: `\`${shortQuery(query)}\``, ...cells(query) })),
    {
      name: 'in the database, per request (calls × mean)',
      ...Object.fromEntries(sums.map((sum, i) => [`ms${i}`, fmtMs(sum)])),
    },
    {
      name: 'the request over HTTP, p50 of the same rounds',
      ...Object.fromEntries(states.map((s, i) => [`ms${i}`, fmtMs(median(s.http))])),
    },
  ];
  return {
    title,
    intro,
    columns: [
      { key: 'name', header: 'statement' },
      ...states.flatMap((s, i) => [
        { key: `calls${i}`, header: `${s.label}: calls per request` },
        { key: `ms${i}`, header: `${s.label}: mean in the database` },
      ]),
    ],
    rows,
    notes: [
      `Differences: ${states
        .slice(1)
        .map(
          (s, i) =>
            `${s.label} against ${states[0]?.label}: ${signedMs(median(s.http) - median(states[0]?.http ?? []))} over HTTP, ` +
            `${signedMs((sums[i + 1] ?? 0) - (sums[0] ?? 0))} in the database`,
        )
        .join('; ')}.`,
    ],
  };
}
