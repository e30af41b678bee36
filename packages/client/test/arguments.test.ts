/**
 * Names in the wrong argument, or that no argument takes, are a TypeError before anything is
 * sent: otherwise they are silently dropped. The casts stand for JavaScript callers and objects
 * built elsewhere, which TypeScript does not check.
 */
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { BASE_URL, makeClient, page, sequence, server, useServer, WAITLIST } from './helpers.js';

useServer();

/** Counts every request; none may be sent. */
function capture(): Request[] {
  const requests: Request[] = [];
  server.use(
    http.all(`${BASE_URL}/*`, ({ request }) => {
      requests.push(request);
      return HttpResponse.json({});
    }),
  );
  return requests;
}

// biome-ignore lint/suspicious/noExplicitAny: the point is calls TypeScript would refuse.
type Loose = any;
const subscribers = (): Loose => makeClient().client.subscribers;
const signal = new AbortController().signal;

async function drain(iterable: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of iterable);
}

const cases: Array<[string, () => Promise<unknown>, string]> = [
  // An option among the parameters: the case that motivated the check.
  [
    'list(id, { signal })',
    () => subscribers().list(WAITLIST, { signal }),
    'subscribers.list: `signal` is an option: pass it as the third argument.',
  ],
  [
    'list(id, { q, timeout })',
    () => subscribers().list(WAITLIST, { q: 'x', timeout: 5 }),
    'subscribers.list: `timeout` is an option: pass it as the third argument.',
  ],
  [
    'create(id, { email, idempotencyKey })',
    () => subscribers().create(WAITLIST, { email: 'a@b.co', idempotencyKey: 'k' }),
    'subscribers.create: `idempotencyKey` is an option: pass it as the third argument.',
  ],
  [
    'admit(id, { count, maxRetries })',
    () => subscribers().admit(WAITLIST, { count: 1, maxRetries: 0 }),
    'subscribers.admit: `maxRetries` is an option: pass it as the third argument.',
  ],
  [
    'iterate(id, { signal })',
    () => drain(subscribers().iterate(WAITLIST, { signal })),
    'subscribers.iterate: `signal` is an option: pass it as the third argument.',
  ],
  // A parameter among the options.
  [
    'list(id, {}, { q })',
    () => subscribers().list(WAITLIST, {}, { q: 'x' }),
    'subscribers.list: `q` is a parameter: pass it as the second argument.',
  ],
  [
    'create(id, { email }, { referral_code })',
    () => subscribers().create(WAITLIST, { email: 'a@b.co' }, { referral_code: 'ABC234' }),
    'subscribers.create: `referral_code` is a parameter: pass it as the second argument.',
  ],
  [
    'admit(id, { count }, { subscriberIds })',
    () => subscribers().admit(WAITLIST, { count: 1 }, { subscriberIds: ['sub_1'] }),
    'subscribers.admit: `subscriberIds` is a parameter: pass it as the second argument.',
  ],
  // idempotencyKey where nothing is POSTed.
  [
    'list(id, {}, { idempotencyKey })',
    () => subscribers().list(WAITLIST, {}, { idempotencyKey: 'k' }),
    'subscribers.list: `idempotencyKey` applies only to create and admit, the methods that POST.',
  ],
  [
    'list(id, { idempotencyKey })',
    () => subscribers().list(WAITLIST, { idempotencyKey: 'k' }),
    'subscribers.list: `idempotencyKey` applies only to create and admit, the methods that POST.',
  ],
  [
    'get(id, sub, { idempotencyKey })',
    () => subscribers().get(WAITLIST, 'sub_1', { idempotencyKey: 'k' }),
    'subscribers.get: `idempotencyKey` applies only to create and admit, the methods that POST.',
  ],
  [
    'delete(id, sub, { idempotencyKey })',
    () => subscribers().delete(WAITLIST, 'sub_1', { idempotencyKey: 'k' }),
    'subscribers.delete: `idempotencyKey` applies only to create and admit, the methods that POST.',
  ],
  // Names no argument takes.
  [
    'list(id, { search })',
    () => subscribers().list(WAITLIST, { search: 'x' }),
    'subscribers.list: unknown parameter `search`; the parameters are `page`, `limit`, `q`, `status`, `channel`.',
  ],
  [
    'iterate(id, { page })',
    () => drain(subscribers().iterate(WAITLIST, { page: 2 })),
    'subscribers.iterate: `page` is not a parameter: iterate fetches every page, from the first.',
  ],
  [
    'iterate(id, { cursor })',
    () => drain(subscribers().iterate(WAITLIST, { cursor: 'x' })),
    'subscribers.iterate: unknown parameter `cursor`; the parameters are `limit`, `q`, `status`, `channel`.',
  ],
  [
    'admit(id, { subscriber_ids })',
    () => subscribers().admit(WAITLIST, { subscriber_ids: ['sub_1'] }),
    'subscribers.admit: unknown parameter `subscriber_ids`; did you mean `subscriberIds`?',
  ],
  [
    'admit(id, { ids })',
    () => subscribers().admit(WAITLIST, { ids: ['sub_1'] }),
    'subscribers.admit: unknown parameter `ids`; the parameters are `count`, `subscriberIds`.',
  ],
  [
    'create(id, { email, clientCountry })',
    () => subscribers().create(WAITLIST, { email: 'a@b.co', clientCountry: 'DE' }),
    'subscribers.create: unknown parameter `clientCountry`; did you mean `client_country`?',
  ],
  [
    'list(id, {}, { max_retries })',
    () => subscribers().list(WAITLIST, {}, { max_retries: 0 }),
    'subscribers.list: unknown option `max_retries`; did you mean `maxRetries`?',
  ],
  [
    'get(id, sub, { retries })',
    () => subscribers().get(WAITLIST, 'sub_1', { retries: 0 }),
    'subscribers.get: unknown option `retries`; the options are `signal`, `timeout`, `maxRetries`.',
  ],
  [
    'create(id, { email }, { headers })',
    () => subscribers().create(WAITLIST, { email: 'a@b.co' }, { headers: {} }),
    'subscribers.create: unknown option `headers`; the options are `signal`, `timeout`, `maxRetries`, `idempotencyKey`.',
  ],
  [
    'delete(id, sub, { status })',
    () => subscribers().delete(WAITLIST, 'sub_1', { status: 'admitted' }),
    'subscribers.delete: unknown option `status`; the options are `signal`, `timeout`, `maxRetries`.',
  ],
  // Arguments that are not objects.
  [
    'list(id, "x")',
    () => subscribers().list(WAITLIST, 'x'),
    'subscribers.list: the parameters (second argument) must be an object, not a string.',
  ],
  [
    'create(id)',
    () => subscribers().create(WAITLIST),
    'subscribers.create: the parameters (second argument) must be an object, not undefined.',
  ],
  [
    'admit(id, 5)',
    () => subscribers().admit(WAITLIST, 5),
    'subscribers.admit: the parameters (second argument) must be an object, not a number.',
  ],
  [
    'list(id, {}, null)',
    () => subscribers().list(WAITLIST, {}, null),
    'subscribers.list: the options (third argument) must be an object, not null.',
  ],
  [
    'get(id, sub, signal)',
    () => subscribers().get(WAITLIST, 'sub_1', [signal]),
    'subscribers.get: the options (third argument) must be an object, not an array.',
  ],
];

describe('names out of place', () => {
  it.each(cases)('%s throws a TypeError and sends nothing', async (_, run, message) => {
    const requests = capture();
    await expect(run()).rejects.toThrow(new TypeError(message));
    expect(requests).toHaveLength(0);
  });

  it('every known name is accepted, an undefined value included', async () => {
    const { requests } = sequence('get', [() => HttpResponse.json(page([]))]);
    const { client } = makeClient();
    const options = { signal, timeout: 1000, maxRetries: 1 };
    await client.subscribers.list(WAITLIST, { page: 1, limit: 5, q: undefined, status: 'waiting' }, options);
    await drain(client.subscribers.iterate(WAITLIST, { limit: 5, q: 'x', status: undefined }, options));
    expect(requests.map((request) => new URL(request.url).search)).toEqual([
      '?page=1&limit=5&status=waiting',
      '?page=1&limit=5&q=x',
    ]);
  });
});

// Never run: `pnpm typecheck` checks that TypeScript refuses the same mistakes at compile time.
export function typedCallersAreStoppedEarlier(): void {
  const { client } = makeClient();
  // @ts-expect-error `signal` is an option, not a parameter.
  void client.subscribers.list(WAITLIST, { signal });
  // @ts-expect-error `idempotencyKey` is an option of the POST methods only.
  void client.subscribers.get(WAITLIST, 'sub_1', { idempotencyKey: 'k' });
  // @ts-expect-error exactly one of `count` and `subscriberIds`.
  void client.subscribers.admit(WAITLIST, { count: 1, subscriberIds: ['sub_1'] });
  // @ts-expect-error `page` is not a parameter of iterate.
  void client.subscribers.iterate(WAITLIST, { page: 2 });
  // @ts-expect-error `status` is `waiting` or `admitted`.
  void client.subscribers.list(WAITLIST, { status: 'erased' });
  void client.subscribers.admit(WAITLIST, { subscriberIds: ['sub_1'] }, { idempotencyKey: 'k' });
}
