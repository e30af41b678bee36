/**
 * The import's CSV reader (docs/moving-a-list.md#the-file), without a server: what it reads, what
 * it refuses with the line, and a fuzz that it never throws anything but its own error and never
 * loses or invents a row.
 */
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  COLUMNS_MAX,
  CsvFileError,
  type CsvRecord,
  RECORD_MAX_CHARS,
  readCsv,
} from '../src/adapters/csv-reader.js';
import { csvRow } from '../src/domain/csv-cells.js';

/** The records of `input`, fed in chunks of `chunk` bytes. */
async function read(input: string | Buffer, chunk = 7): Promise<CsvRecord[]> {
  const bytes = typeof input === 'string' ? Buffer.from(input) : input;
  const pieces: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += chunk) pieces.push(bytes.subarray(i, i + chunk));
  const records: CsvRecord[] = [];
  for await (const record of readCsv(Readable.from(pieces))) records.push(record);
  return records;
}

async function refusal(input: string | Buffer): Promise<CsvFileError> {
  const error = await read(input).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CsvFileError);
  return error as CsvFileError;
}

describe('the CSV reader', () => {
  it('reads RFC 4180: quotes, doubled quotes, CRLF, quoted newlines, a UTF-8 BOM, with each record’s first line', async () => {
    const text =
      '\uFEFFemail,note\r\na@example.com,"one, two"\r\nb@example.com,"say ""hi""\r\nover two lines"\r\nc@example.com,\r\n';
    expect(await read(text)).toEqual([
      { line: 1, cells: ['email', 'note'] },
      { line: 2, cells: ['a@example.com', 'one, two'] },
      { line: 3, cells: ['b@example.com', 'say "hi"\r\nover two lines'] },
      { line: 5, cells: ['c@example.com', ''] },
    ]);
  });

  it('takes a semicolon as the separator when the header has semicolons and no comma, and skips blank lines', async () => {
    expect(await read('Email;Joined_At\n\na@example.com;2024-01-01\n\n')).toEqual([
      { line: 1, cells: ['Email', 'Joined_At'] },
      { line: 3, cells: ['a@example.com', '2024-01-01'] },
    ]);
  });

  it('refuses an empty file', async () => {
    expect((await refusal('')).message).toMatch(/^Line 1: the file is empty/);
  });

  it('refuses UTF-16, with a BOM of either order, asking for UTF-8', async () => {
    for (const bom of [
      [0xff, 0xfe],
      [0xfe, 0xff],
    ]) {
      const file = Buffer.concat([Buffer.from(bom), Buffer.from('e\0m\0a\0i\0l\0', 'latin1')]);
      expect((await refusal(file)).message).toMatch(/UTF-16: save it as CSV in UTF-8/);
    }
  });

  it('refuses a binary file, naming the line of its first NUL byte', async () => {
    const error = await refusal(Buffer.concat([Buffer.from('email\na@b.example\n'), Buffer.from([0, 1, 2])]));
    expect(error.line).toBe(3);
    expect(error.message).toMatch(/binary/);
  });

  it('refuses bytes that are not UTF-8', async () => {
    expect((await refusal(Buffer.from([0x65, 0x6d, 0x0a, 0xc3, 0x28]))).message).toMatch(/not UTF-8/);
  });

  it(`refuses a header of more than ${COLUMNS_MAX} columns, and 2 million columns by the record cap`, async () => {
    expect((await refusal(`email${',x'.repeat(COLUMNS_MAX)}\n`)).message).toMatch(/columns; at most 200/);
    const huge = await refusal(`email${',x'.repeat(2_000_000)}\n`);
    expect(huge.line).toBe(1);
    expect(huge.message).toMatch(/longer than 65536 characters/);
  });

  it('refuses a field larger than the cap, naming its line', async () => {
    const error = await refusal(
      `email,note\na@b.example,ok\nc@d.example,${'x'.repeat(RECORD_MAX_CHARS + 1)}\n`,
    );
    expect(error.line).toBe(3);
  });

  it('refuses a quote that never closes', async () => {
    expect((await refusal('email\n"a@b.example\n')).message).toMatch(/never closed/);
  });

  it('gives back what csvRow wrote, whatever the cells (fuzz: no row lost or invented, nothing thrown but its own error)', async () => {
    const cell = fc.string({ unit: fc.constantFrom('a', ',', '"', '\n', '\r', ';', ' ', 'é', "'", '=') });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(cell, { minLength: 2, maxLength: 2 }), { maxLength: 20 }),
        fc.integer({ min: 1, max: 40 }),
        async (rows, chunk) => {
          // A row of empty cells only is written as one comma, not a blank line: kept.
          const text = csvRow(['email', 'note']) + rows.map((r) => csvRow(r)).join('');
          const records = await read(text, chunk);
          expect(records.map((r) => r.cells).slice(1)).toEqual(
            rows.map((r) => r.map((c) => (/^'*[=+\-@\t\r]/.test(c) ? `'${c}` : c))),
          );
        },
      ),
      { numRuns: 200 },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 300 }),
        fc.integer({ min: 1, max: 50 }),
        async (bytes, chunk) => {
          const outcome = await read(Buffer.from(bytes), chunk).then(
            (records) => records,
            (error: unknown) => error,
          );
          if (!Array.isArray(outcome)) expect(outcome).toBeInstanceOf(CsvFileError);
        },
      ),
      { numRuns: 500 },
    );
  });
});
