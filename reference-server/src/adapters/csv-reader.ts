/**
 * Reads an import's CSV file (docs/moving-a-list.md#the-file) as a stream of records, each with
 * the line it starts on: RFC 4180 quoting, CRLF or LF, quoted newlines, a UTF-8 byte order mark,
 * and `;` as the separator when the header has no comma (a spreadsheet saved in a locale whose
 * decimal mark is the comma). csv-parse does the parsing: maintained, streaming, and strict about
 * quotes where a split on commas would silently shift columns. This file adds what makes a file
 * refusable before a row is read (binary, UTF-16, no header, too many columns) and turns every
 * failure into one `CsvFileError` naming the line, so memory stays flat and nothing else escapes.
 */
import type { Readable } from 'node:stream';
import { CsvError, parse } from 'csv-parse';

/** A record of the file: its cells as written, and the line of the file it starts on (1: the header). */
export interface CsvRecord {
  line: number;
  cells: string[];
}

/** Why the file as a whole cannot be read, and where. */
export class CsvFileError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`Line ${line}: ${message}`);
    this.name = 'CsvFileError';
  }
}

/** A record (a header or a row) longer than this is not a subscriber: 10 fields of 500 characters fit four times. */
export const RECORD_MAX_CHARS = 64 * 1024;
/** Far above the columns an import knows (about 30 and one per field), far below a runaway header. */
export const COLUMNS_MAX = 200;

const UTF16_BOMS = [Buffer.from([0xff, 0xfe]), Buffer.from([0xfe, 0xff])];

/** The header's separator: a comma, or a semicolon when the first line has semicolons and no comma. */
export function separatorOf(firstLine: string): ',' | ';' {
  return !firstLine.includes(',') && firstLine.includes(';') ? ';' : ',';
}

/**
 * The text of the file, decoded strictly as UTF-8: a UTF-16 byte order mark, a NUL byte (a
 * binary file) or bytes that are not UTF-8 end it with an error naming the line.
 */
async function* utf8Text(input: AsyncIterable<Buffer | string>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let line = 1;
  let first = true;
  for await (const chunk of input) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    if (first && bytes.length > 0) {
      first = false;
      if (UTF16_BOMS.some((bom) => bytes.subarray(0, 2).equals(bom)))
        throw new CsvFileError(1, 'the file is UTF-16: save it as CSV in UTF-8 and import that.');
    }
    const nul = bytes.indexOf(0);
    if (nul >= 0) {
      throw new CsvFileError(
        line + countNewlines(bytes.subarray(0, nul)),
        'the file is binary (it holds a NUL byte), not a CSV text file.',
      );
    }
    let text: string;
    try {
      text = decoder.decode(bytes, { stream: true });
    } catch {
      throw new CsvFileError(line, 'the file is not UTF-8: save it as CSV in UTF-8 and import that.');
    }
    line += countNewlines(bytes);
    if (text !== '') yield text;
  }
  try {
    const rest = decoder.decode();
    if (rest !== '') yield rest;
  } catch {
    throw new CsvFileError(line, 'the file ends in the middle of a UTF-8 character.');
  }
}

function countNewlines(bytes: Uint8Array): number {
  let n = 0;
  for (let i = bytes.indexOf(10); i >= 0; i = bytes.indexOf(10, i + 1)) n++;
  return n;
}

/** The text again, its first line read ahead to pick the separator (at most a record's length). */
async function withSeparator(
  text: AsyncGenerator<string>,
): Promise<{ separator: ',' | ';'; text: AsyncGenerator<string> }> {
  const ahead: string[] = [];
  let seen = '';
  for (;;) {
    const next = await text.next();
    if (next.done) break;
    ahead.push(next.value);
    seen += next.value;
    if (/[\r\n]/.test(seen) || seen.length > RECORD_MAX_CHARS) break;
  }
  const firstLine = seen.replace(/^\uFEFF/, '').split(/\r?\n|\r/, 1)[0] ?? '';
  async function* replayed() {
    yield* ahead;
    yield* text;
  }
  return { separator: separatorOf(firstLine.slice(0, RECORD_MAX_CHARS)), text: replayed() };
}

/** csv-parse's words for its errors, ours being plainer. */
function parseProblem(error: CsvError): string {
  switch (error.code) {
    case 'CSV_MAX_RECORD_SIZE':
      return `a record is longer than ${RECORD_MAX_CHARS} characters.`;
    case 'CSV_QUOTE_NOT_CLOSED':
      return 'a quoted cell is never closed (a " is missing).';
    case 'CSV_INVALID_CLOSING_QUOTE':
    case 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE':
      return 'a quoted cell goes on after its closing quote (a quote inside a cell is written "").';
    default:
      return `the file is not valid CSV (${error.message.replace(/^Invalid [^:]*: /, '')})`;
  }
}

/**
 * The file's header and then its rows, one at a time: the header is checked for being there
 * and within `COLUMNS_MAX`; rows are as written, their cell count checked by the caller (a row
 * of the wrong width is an invalid row, not an unreadable file). Blank lines are skipped.
 */
export async function* readCsv(input: Readable | AsyncIterable<Buffer | string>): AsyncGenerator<CsvRecord> {
  const { separator, text } = await withSeparator(utf8Text(input));
  const parser = parse({
    bom: true,
    delimiter: separator,
    relax_column_count: true,
    max_record_size: RECORD_MAX_CHARS,
    info: true,
    raw: true,
  });
  // The text is written as the parser asks for it: one chunk in flight, so memory stays flat.
  const feeding = (async () => {
    try {
      for await (const chunk of text) {
        if (parser.destroyed) return;
        if (!parser.write(chunk))
          await new Promise<void>((resolve) => {
            const go = () => {
              parser.off('drain', go);
              parser.off('close', go);
              resolve();
            };
            parser.on('drain', go);
            parser.on('close', go);
          });
      }
      if (!parser.destroyed) parser.end();
    } catch (error) {
      parser.destroy(error as Error);
    }
  })();
  let previousEnd = 0;
  let header = true;
  try {
    for await (const { record, raw } of parser as AsyncIterable<{ record: string[]; raw: string }>) {
      // A record's raw text holds its line breaks (CRLF, LF or CR, each one): the next record
      // starts after them. (csv-parse's own count takes a quoted CRLF for two lines.)
      const line = previousEnd + 1;
      previousEnd += raw.match(/\r\n|\r|\n/g)?.length ?? 0;
      if (record.length === 1 && record[0] === '') continue;
      if (header) {
        header = false;
        if (record.length > COLUMNS_MAX)
          throw new CsvFileError(
            line,
            `the header has ${record.length} columns; at most ${COLUMNS_MAX} are read.`,
          );
      }
      yield { line, cells: record };
    }
  } catch (error) {
    if (error instanceof CsvFileError) throw error;
    if (error instanceof CsvError) {
      const at = (error as CsvError & { lines?: number }).lines ?? previousEnd + 1;
      throw new CsvFileError(at, parseProblem(error));
    }
    throw error;
  } finally {
    parser.destroy();
    await feeding;
  }
  if (header) throw new CsvFileError(1, 'the file is empty: it needs a header row with an `email` column.');
}
