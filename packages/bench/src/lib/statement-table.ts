/**
 * A table of the statements behind a request, side by side for several states of one server (as
 * seeded and boosted; without and with an endpoint): per request, each statement's calls and
 * time, then their sum. The figures come from PostgreSQL's own counts (statement-times.ts) or
 * from the probed SQLite writer (instrumented-server.ts); this only lays them out.
 */
import type { Column, Row } from './table.js';

/** One statement's calls and time over a state's requests; `detail` goes after its time. */
export interface StatementFigure {
  query: string;
  calls: number;
  ms: number;
  detail?: string;
}

export interface StatementState {
  label: string;
  requests: number;
  statements: readonly StatementFigure[];
}

/** A statement's text on one line, cut to what tells it apart. */
const shortQuery = (query: string) => {
  const line = query.replace(/\s+/g, ' ').trim();
  return line.length > 110 ? `${line.slice(0, 107)}…` : line;
};

/** A statement's calls and milliseconds per request. */
export interface PerRequest {
  calls: number;
  ms: number;
}

/**
 * The statements `keep` keeps in some state (given their figures there and the state's index),
 * the longest first by their largest time per request; `time` formats milliseconds. The last row
 * is each state's sum per request of the statements kept.
 */
export function statementTable(
  states: readonly StatementState[],
  {
    time,
    sumLabel,
    keep,
  }: { time: (ms: number) => string; sumLabel: string; keep: (t: PerRequest, state: number) => boolean },
): { columns: Column[]; rows: Row[]; sums: number[] } {
  const perRequest = states.map(
    (s, i) =>
      new Map(
        s.statements
          .map((t) => ({
            query: t.query,
            calls: t.calls / s.requests,
            ms: t.ms / s.requests,
            detail: t.detail,
          }))
          .filter((t) => keep(t, i))
          .map((t) => [t.query, t]),
      ),
  );
  const largest = (query: string) => Math.max(...perRequest.map((m) => m.get(query)?.ms ?? 0));
  const queries = [...new Set(perRequest.flatMap((m) => [...m.keys()]))].sort(
    (a, b) => largest(b) - largest(a),
  );
  const sums = perRequest.map((m) => [...m.values()].reduce((sum, t) => sum + t.ms, 0));
  const rows: Row[] = [
    ...queries.map((query) => ({
      name: `\`${shortQuery(query)}\``,
      ...Object.fromEntries(
        perRequest.flatMap((m, i) => {
          const t = m.get(query);
          return [
            [`calls${i}`, t ? t.calls.toFixed(Number.isInteger(t.calls) ? 0 : 2) : ''],
            [`time${i}`, t ? `${time(t.ms)}${t.detail ? ` (${t.detail})` : ''}` : ''],
          ];
        }),
      ),
    })),
    timeRow(sumLabel, sums, time),
  ];
  const columns: Column[] = [
    { key: 'name', header: 'statement' },
    ...states.flatMap((s, i) => [
      { key: `calls${i}`, header: `${s.label}: calls per request` },
      { key: `time${i}`, header: `${s.label}: time per request` },
    ]),
  ];
  return { columns, rows, sums };
}

/** A row of one figure per state, under the states' time columns. */
export const timeRow = (name: string, values: readonly number[], format: (v: number) => string): Row => ({
  name,
  ...Object.fromEntries(values.map((v, i) => [`time${i}`, format(v)])),
});

/** A difference with its sign. */
export const signed = (value: number, format: (v: number) => string) =>
  `${value < 0 ? '−' : '+'}${format(Math.abs(value))}`;
