/**
 * What a run prints at its end and writes to BENCHMARKS.md: the Goals table, gathered from every
 * row with a goal, and the document around the items' sections.
 */
import type { Machine } from './machine.js';
import { renderSection, type Section } from './table.js';

export interface ItemResult {
  id: string;
  sections: Section[];
}

/** Every row with a goal, as one table ('' when there is none). */
export function goalsTable(items: readonly ItemResult[]): string {
  const rows = items.flatMap(({ id, sections }) =>
    sections.flatMap((section) =>
      section.rows
        .filter((row) => row.goal)
        // `goalRatio`: the figure the goal is judged on, when it is not the row's own ratio.
        .map((row) => ({ ...row, name: `${id}: ${row.name}`, ratio: row.goalRatio ?? row.ratio })),
    ),
  );
  if (rows.length === 0) return '';
  return renderSection({
    title: 'Goals',
    columns: [
      { key: 'name', header: 'measurement' },
      { key: 'value', header: 'value' },
      { key: 'ratio', header: 'ratio to its baseline' },
      { key: 'goal', header: 'goal' },
      { key: 'met', header: 'met' },
    ],
    rows,
  });
}

export function benchmarksDocument(info: Machine, seconds: number, items: readonly ItemResult[]): string {
  const goals = goalsTable(items);
  return [
    '# Benchmarks',
    '',
    `Written by \`pnpm bench\` on ${info.date.slice(0, 10)} in ${Math.round(seconds)} s; do not edit by hand, run it again.`,
    'Every figure stands beside a baseline measured in the same run on the same machine; figures are',
    'medians of several runs and ratios the median of the per-run ratios, never a single absolute time.',
    'A shared, noisy 2-core machine moves absolute numbers by tens of percent from run to run; the',
    'ratios move much less. `pnpm bench --smoke` runs everything briefly and writes nothing.',
    '',
    '## Machine',
    '',
    '| | |',
    '|---|---|',
    `| CPU | ${info.cpu} |`,
    `| cores | ${info.cores} |`,
    `| memory | ${info.memory} |`,
    `| OS | ${info.os} |`,
    `| Node | ${info.node} |`,
    `| sqlite3 (the server's driver) | ${info.sqlite3} |`,
    `| better-sqlite3 (comparison only) | ${info.betterSqlite3} |`,
    `| wrk | ${info.wrk} |`,
    `| load average at start | ${info.load} |`,
    `| date | ${info.date} |`,
    '',
    goals ? goals.replace(/^### Goals/, '## Goals') : '',
    '## Results',
    '',
    ...items.flatMap(({ sections }) => sections.map(renderSection)),
  ].join('\n');
}
