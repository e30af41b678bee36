/**
 * `--body-file F` of `message set` (docs/command-line.md#messages): the file's text, or a usage
 * error naming the option: missing, unreadable, or too large to be a message's body.
 */
import { readFileSync, statSync } from 'node:fs';
import { BODY_MAX } from '../domain/messages.js';
import { UsageError } from './options.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A body file of more than 4 bytes a character cannot hold 5,000 characters: refused before it is
 * read. Bytes that are not UTF-8 are refused rather than sent as replacement characters.
 */
export function readBodyFile(path: string): string {
  const option = `--body-file ${JSON.stringify(path)}`;
  try {
    if (statSync(path).size > BODY_MAX * 4)
      throw new UsageError(`${option}: the body has more than ${BODY_MAX} characters.`);
    const bytes = readFileSync(path);
    try {
      return utf8.decode(bytes);
    } catch {
      throw new UsageError(`${option}: the file is not UTF-8 text.`);
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'there is no such file' : `it cannot be read (${code ?? 'error'})`;
    throw new UsageError(`${option}: ${why}.`);
  }
}
