/**
 * Rendering of the sections benchmarks return. A row is an object of display strings keyed by
 * column (the standard ones: name, value, baseline, ratio, goal, met). The same Markdown table
 * goes to the terminal and to BENCHMARKS.md.
 */

export interface Column {
  key: string;
  header: string;
}

/** A row's cells by column key; `name`, and for a goal `goal`, `met` and `goalRatio`, are read by the runner. */
export type Row = Readonly<Record<string, string | undefined>>;

export interface Section {
  title: string;
  intro?: string;
  /** The standard columns when absent. */
  columns?: Column[];
  rows: Row[];
  notes?: string[];
}

const STANDARD_COLUMNS: Column[] = [
  { key: 'name', header: 'measurement' },
  { key: 'value', header: 'value' },
  { key: 'baseline', header: 'baseline (same run)' },
  { key: 'ratio', header: 'ratio' },
  { key: 'goal', header: 'goal' },
  { key: 'met', header: 'met' },
];

function escapeCell(cell: string | undefined): string {
  return (cell ?? '').replaceAll('|', '\\|');
}

function markdownTable(columns: Column[], rows: Row[]): string {
  const widths = columns.map((c) =>
    Math.max(c.header.length, ...rows.map((r) => escapeCell(r[c.key]).length), 3),
  );
  const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [
    line(columns.map((c) => c.header)),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map((r) => line(columns.map((c) => escapeCell(r[c.key])))),
  ].join('\n');
}

export function renderSection(section: Section): string {
  const columns = section.columns ?? STANDARD_COLUMNS;
  const parts = [`### ${section.title}`, ''];
  if (section.intro) parts.push(section.intro, '');
  if (section.rows.length > 0) parts.push(markdownTable(columns, section.rows), '');
  for (const note of section.notes ?? []) parts.push(`- ${note}`);
  if (section.notes?.length) parts.push('');
  return parts.join('\n');
}
