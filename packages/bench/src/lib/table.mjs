/**
 * Rendering of the sections benchmarks return. A section is
 * `{ title, columns?, rows, notes? }`; a row is an object of display strings keyed by column
 * (the standard ones: name, value, baseline, ratio, goal, met). The same Markdown table goes to
 * the terminal and to BENCHMARKS.md.
 */

export const STANDARD_COLUMNS = [
  { key: 'name', header: 'measurement' },
  { key: 'value', header: 'value' },
  { key: 'baseline', header: 'baseline (same run)' },
  { key: 'ratio', header: 'ratio' },
  { key: 'goal', header: 'goal' },
  { key: 'met', header: 'met' },
];

function escapeCell(cell) {
  return String(cell ?? '').replaceAll('|', '\\|');
}

export function markdownTable(columns, rows) {
  const widths = columns.map((c) =>
    Math.max(c.header.length, ...rows.map((r) => escapeCell(r[c.key]).length), 3),
  );
  const line = (cells) => `| ${cells.map((cell, i) => cell.padEnd(widths[i])).join(' | ')} |`;
  return [
    line(columns.map((c) => c.header)),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map((r) => line(columns.map((c) => escapeCell(r[c.key])))),
  ].join('\n');
}

export function renderSection(section, level = 3) {
  const columns = section.columns ?? STANDARD_COLUMNS;
  const parts = [`${'#'.repeat(level)} ${section.title}`, ''];
  if (section.intro) parts.push(section.intro, '');
  if (section.rows.length > 0) parts.push(markdownTable(columns, section.rows), '');
  for (const note of section.notes ?? []) parts.push(`- ${note}`);
  if (section.notes?.length) parts.push('');
  return parts.join('\n');
}
