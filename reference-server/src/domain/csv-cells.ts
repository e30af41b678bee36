/**
 * CSV cells (RFC 4180) as every export writes them (the dashboard's and `subscriber export`,
 * docs/moving-a-list.md#the-export), and as an import reads them back. A cell that a spreadsheet
 * would run as a formula (starting with = + - @, tab or carriage return: `=cmd@example.com` is a
 * valid address) is prefixed with a quote mark so it stays text; a cell already starting with
 * quote marks before one of those gets one more, so `unguarded` gives back exactly what was written.
 */
const FORMULA = /^'*[=+\-@\t\r]/;

export function csvCell(value: string | number): string {
  let text = String(value);
  if (typeof value === 'string' && FORMULA.test(text)) text = `'${text}`;
  return /[",\r\n']/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvRow(values: readonly (string | number)[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}

/** A cell as it was before `csvCell` guarded it. */
export function unguarded(cell: string): string {
  return /^'+[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell;
}
