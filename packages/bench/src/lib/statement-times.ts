/**
 * Where a request's time goes on PostgreSQL, statement by statement: pg_stat_statements (loaded by
 * startCluster({ statements: true })) times every statement the server runs, as PostgreSQL plans
 * and executes it. Reset before rounds of one request and read after them, it says which of the
 * server's own statements that request ran, how often, and how long each took inside the
 * database; what is left of the request's time over HTTP is round trips, the driver and the server.
 */
import { withClient } from './postgres.js';
import { signed, statementTable, timeRow } from './statement-table.js';
import { fmtMs, median } from './stats.js';
import type { Section } from './table.js';

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

/** The statements of `requests` requests, and their times over HTTP. */
export interface RequestStatements {
  label: string;
  requests: number;
  http: number[];
  statements: StatementTime[];
}

/**
 * Each state's statements side by side (statement-table.ts), their time in the database per
 * request (executing and planning; the planning of it in brackets), then the request's p50 over
 * HTTP.
 */
export function statementsSection(
  title: string,
  intro: string,
  states: readonly RequestStatements[],
): Section {
  const { columns, rows, sums } = statementTable(
    states.map((s) => ({
      label: s.label,
      requests: s.requests,
      statements: s.statements.map((t) => ({
        query: t.query,
        calls: t.calls,
        ms: t.calls * (t.execMs + t.planMs),
        detail: `plan ${fmtMs((t.calls * t.planMs) / s.requests)}`,
      })),
    })),
    // Run less than once per two requests: the server's background work, not the request's.
    { time: fmtMs, sumLabel: 'in the database, per request', keep: (t) => t.calls >= 0.5 },
  );
  const http = states.map((s) => median(s.http));
  const differences = states
    .slice(1)
    .map(
      (s, i) =>
        `${s.label} against ${states[0]?.label}: ${signed((http[i + 1] ?? 0) - (http[0] ?? 0), fmtMs)} over HTTP, ` +
        `${signed((sums[i + 1] ?? 0) - (sums[0] ?? 0), fmtMs)} in the database`,
    );
  return {
    title,
    intro,
    columns,
    rows: [...rows, timeRow('the request over HTTP, p50 of the same rounds', http, fmtMs)],
    notes: [`Differences: ${differences.join('; ')}.`],
  };
}
