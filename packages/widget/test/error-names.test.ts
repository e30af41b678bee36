/**
 * One vocabulary: the widget names the failures it shares with the client as the protocol's
 * `ErrorName` says (the client's test checks its side), in the sources and in the npm builds,
 * and its old names still catch what the new classes throw.
 */
import { createRequire } from 'node:module';
import { ErrorName } from '@waitlistkit/protocol';
import { describe, expect, it } from 'vitest';
import * as source from '../src/index.js';

type Entry = typeof source;
type ErrorClass = new (message: string, status: number, code: source.WaitlistErrorCode) => Error;
const builds: [string, () => Entry][] = [
  ['the sources', () => source],
  ['the CommonJS build', () => createRequire(import.meta.url)('../dist/index.cjs') as Entry],
];

describe.each(builds)('%s', (_, load) => {
  it.each(Object.values(ErrorName))('export %s, whose errors are named so', (name) => {
    const Class = load()[name] as ErrorClass;
    const error = new Class('m', 0, 'unexpected_response');
    expect(error.name).toBe(name);
    expect(error).toBeInstanceOf(load().WaitlistError);
  });
});

describe('the old names, deprecated', () => {
  const renamed: [string, ErrorClass, ErrorClass][] = [
    ['RateLimitedError', source.RateLimitedError, source.RateLimitError],
    ['ServerError', source.ServerError, source.InternalServerError],
    ['NetworkError', source.NetworkError, source.ConnectionError],
    ['AbortedError', source.AbortedError, source.AbortError],
  ];

  it.each(renamed)(
    '%s catches what its new class throws; one made under it is both, named the old way',
    (old, Old, New) => {
      expect(new New('m', 0, 'aborted')).toBeInstanceOf(Old);
      const made = new Old('m', 0, 'aborted');
      expect(made).toBeInstanceOf(New);
      expect(made).toBeInstanceOf(source.WaitlistError);
      expect(made.name).toBe(old);
      expect(new source.WaitlistError('m', 0, 'aborted')).not.toBeInstanceOf(Old);
    },
  );
});
