import { inspect } from 'node:util';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { ResponseValidationError, WaitlistApiError, WaitlistError } from '../src/index.js';
import { accepted, makeClient, page, sequence, subscriber, useServer, WAITLIST } from './helpers.js';

useServer();

async function listFailure(respond: () => Response) {
  const { requests } = sequence('get', [respond]);
  const error = await makeClient()
    .client.subscribers.list(WAITLIST)
    .catch((e: unknown) => e);
  return { error: error as ResponseValidationError, requests };
}

const four = [1, 2, 3, 4].map(subscriber);

describe('a 2xx list answer that does not match ListPage', () => {
  it('names the path of a field of the wrong type', async () => {
    const items = four.map((s, i) => (i === 3 ? { ...s, position: '4' } : s));
    const { error, requests } = await listFailure(() => HttpResponse.json({ ...page([]), items, total: 4 }));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error).toBeInstanceOf(WaitlistError);
    expect(error).not.toBeInstanceOf(WaitlistApiError);
    expect(error.path).toBe('items.3.position');
    expect(error.message).toBe(
      "The service's answer does not match ListPage: `items.3.position` must be a number, not a string.",
    );
    expect(error.status).toBe(200);
    // Not retried: asking again would get the same answer.
    expect(requests).toHaveLength(1);
  });

  it('names a missing field', async () => {
    const { total: _, ...withoutTotal } = page(four);
    const { error } = await listFailure(() => HttpResponse.json(withoutTotal));
    expect(error.path).toBe('total');
    expect(error.message).toMatch(/`total` is required\.$/);
  });

  it('names a malformed timestamp deep in the items', async () => {
    const items = four.map((s, i) => (i === 1 ? { ...s, joined_at: 'yesterday' } : s));
    const { error } = await listFailure(() => HttpResponse.json(page(items)));
    expect(error.path).toBe('items.1.joined_at');
  });

  it('counts further problems', async () => {
    const { error } = await listFailure(() =>
      HttpResponse.json({ items: 'none', total: -1, page: 0, limit: 25 }),
    );
    expect(error.path).toBe('items');
    expect(error.message).toMatch(/\(2 more problems\)$/);
  });

  it('rejects a body that is not an object', async () => {
    const { error } = await listFailure(() => HttpResponse.json([subscriber(1)]));
    expect(error.path).toBe('');
    expect(error.message).toMatch(/The body must be an object, not an array\./);
  });

  it.each([
    ['plain text', () => new HttpResponse('OK', { status: 200 })],
    ['an empty body', () => new HttpResponse(null, { status: 200 })],
    [
      'truncated JSON',
      () => new HttpResponse('{"items":[', { status: 200, headers: { 'Content-Type': 'application/json' } }),
    ],
  ])('rejects %s as not JSON', async (_, respond) => {
    const { error } = await listFailure(respond);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.path).toBe('');
    expect(error.message).toBe("The service's 200 answer is not JSON; expected ListPage.");
  });

  it('carries the headers and rate limit, but no subscriber data', async () => {
    const items = [{ ...subscriber(1), email: 'secret.person@example.com', position: 0 }];
    const { error } = await listFailure(() =>
      HttpResponse.json(page(items), { headers: { 'RateLimit-Remaining': '9' } }),
    );
    expect(error.path).toBe('items.0.position');
    expect(error.rateLimit.remaining).toBe(9);
    expect(error.headers.get('ratelimit-remaining')).toBe('9');
    expect(inspect(error, { depth: 10 })).not.toContain('secret.person');
    expect(JSON.stringify(error)).not.toContain('secret.person');
  });
});

describe('a 2xx create answer that does not match AcceptedSignup', () => {
  it('names the field', async () => {
    sequence('post', [() => HttpResponse.json({ ...accepted, status: 'queued' }, { status: 202 })]);
    const error = await makeClient()
      .client.subscribers.create(WAITLIST, { email: 'a@b.co' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).path).toBe('status');
    expect((error as ResponseValidationError).status).toBe(202);
    expect((error as Error).message).toBe(
      'The service\'s answer does not match AcceptedSignup: `status` must be one of "accepted".',
    );
  });

  it('rejects a missing field', async () => {
    const { status_url: _, ...rest } = accepted;
    sequence('post', [() => HttpResponse.json(rest, { status: 202 })]);
    const error = await makeClient()
      .client.subscribers.create(WAITLIST, { email: 'a@b.co' })
      .catch((e: unknown) => e);
    expect((error as ResponseValidationError).path).toBe('status_url');
  });
});
