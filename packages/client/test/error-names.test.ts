/**
 * One vocabulary: the client names the failures it shares with the widget as the protocol's
 * `ErrorName` says (the widget's test checks its side).
 */
import { ErrorName } from '@waitlistkit/protocol';
import { expect, it } from 'vitest';
import * as client from '../src/index.js';

const exported = new Map(Object.entries(client));

it.each(Object.values(ErrorName))('exports %s, whose errors are named so', (name) => {
  const Class = exported.get(name) as new (init: unknown) => Error;
  const error = new Class(
    Class.prototype instanceof client.WaitlistApiError
      ? { status: 400, code: undefined, message: 'm', headers: new Headers() }
      : 'm',
  );
  expect(error.name).toBe(name);
  expect(error).toBeInstanceOf(client.WaitlistError);
});
