/**
 * `--fields FILE.json` (docs/command-line.md#fields-and-address-variants): the file's JSON as a
 * waitlist's field definitions, or a usage error that says what is wrong with it: missing,
 * unreadable, not JSON, or which definition breaks which rule.
 */
import { readFileSync } from 'node:fs';
import type { FieldDefinition } from '@waitlistkit/protocol';
import { parseFieldDefinitions } from '../domain/setting-fields.js';
import { UsageError } from './options.js';

export function readFieldsFile(path: string): FieldDefinition[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'there is no such file' : `it cannot be read (${code ?? 'error'})`;
    throw new UsageError(`--fields ${JSON.stringify(path)}: ${why}.`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--fields ${JSON.stringify(path)} is not JSON: ${(error as Error).message}`);
  }
  try {
    return parseFieldDefinitions(json);
  } catch (error) {
    throw new UsageError(`--fields ${JSON.stringify(path)}: ${(error as Error).message}`);
  }
}
