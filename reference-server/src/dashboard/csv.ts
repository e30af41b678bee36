/**
 * CSV (RFC 4180) for the subscribers export. A cell that a spreadsheet would run as a formula
 * (starting with = + - @, tab or carriage return: `=cmd@example.com` is a valid address) is
 * prefixed with a quote mark so it stays text.
 */
export function csvCell(value: string | number): string {
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n']/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvRow(values: readonly (string | number)[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}
