import { delay, HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { AbortError, ConnectionError, TimeoutError, WaitlistClient, WaitlistError } from '../src/index.js';
import { sleep } from '../src/retry.js';
import {
  API_KEY,
  BASE_URL,
  errorResponse,
  makeClient,
  page,
  pagedList,
  SUBSCRIBERS_URL,
  sequence,
  server,
  subscriber,
  useServer,
  WAITLIST,
} from './helpers.js';

useServer();

const ok = () => HttpResponse.json(page([subscriber(1)]));

/** A handler that never answers. */
async function never(): Promise<Response> {
  await delay('infinite');
  throw new Error('unreachable');
}

describe('timeouts', () => {
  it('an attempt that gets no answer within `timeout` throws TimeoutError', async () => {
    const { requests } = sequence('get', [never]);
    const { client } = makeClient({ timeout: 30, maxRetries: 0 });
    const error = await client.subscribers.list(WAITLIST).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toBe('The service did not answer within 30 ms.');
    expect(requests).toHaveLength(1);
  });

  it('each attempt has its own timeout, and timeouts are retried', async () => {
    const { requests } = sequence('post', [never]);
    const { client, waits } = makeClient({ timeout: 20 });
    await expect(client.subscribers.create(WAITLIST, { email: 'a@b.co' })).rejects.toBeInstanceOf(
      TimeoutError,
    );
    expect(requests).toHaveLength(3);
    expect(waits).toEqual([375, 750]);
  });

  it('a retry after a timeout can succeed', async () => {
    const { requests } = sequence('get', [never, ok]);
    const { client } = makeClient({ timeout: 20 });
    await expect(client.subscribers.list(WAITLIST)).resolves.toMatchObject({ total: 1 });
    expect(requests).toHaveLength(2);
  });

  it('covers reading the body: a server that stalls mid-body times out', async () => {
    server.use(
      http.get(SUBSCRIBERS_URL, () => {
        const stream = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{"items":['));
            // …and nothing more, ever.
          },
        });
        return new HttpResponse(stream, { headers: { 'Content-Type': 'application/json' } });
      }),
    );
    const { client } = makeClient({ timeout: 50, maxRetries: 0 });
    await expect(client.subscribers.list(WAITLIST)).rejects.toBeInstanceOf(TimeoutError);
  });

  it('a per-call timeout overrides the client', async () => {
    sequence('get', [never]);
    const { client } = makeClient({ maxRetries: 0 });
    await expect(client.subscribers.list(WAITLIST, {}, { timeout: 20 })).rejects.toBeInstanceOf(TimeoutError);
  });
});

describe('abort', () => {
  it('an already-aborted signal sends nothing', async () => {
    const { requests } = sequence('get', [ok]);
    const reason = new Error('shutting down');
    const error = await makeClient()
      .client.subscribers.list(WAITLIST, {}, { signal: AbortSignal.abort(reason) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortError);
    expect(error).toBeInstanceOf(WaitlistError);
    expect((error as Error).cause).toBe(reason);
    expect(requests).toHaveLength(0);
  });

  it('aborting during a request stops it, with no retry', async () => {
    const controller = new AbortController();
    const { requests } = sequence('post', [
      async () => {
        controller.abort();
        return never();
      },
    ]);
    const { client, waits } = makeClient();
    const error = await client.subscribers
      .create(WAITLIST, { email: 'a@b.co' }, { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortError);
    expect(error).not.toBeInstanceOf(TimeoutError);
    expect(requests).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('aborting during the wait before a retry ends the call at once, with the real clock', async () => {
    const controller = new AbortController();
    const { requests } = sequence('get', [
      () => {
        setTimeout(() => controller.abort(), 20);
        return errorResponse(429, 'rate_limit_exceeded', { 'Retry-After': '30' });
      },
    ]);
    const client = new WaitlistClient({ apiKey: API_KEY, baseUrl: BASE_URL });
    const started = performance.now();
    await expect(client.subscribers.list(WAITLIST, {}, { signal: controller.signal })).rejects.toBeInstanceOf(
      AbortError,
    );
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(requests).toHaveLength(1);
  });

  it('aborting between pages stops the iteration before the next request', async () => {
    const { requests } = pagedList(5);
    const controller = new AbortController();
    const seen: string[] = [];
    const { client } = makeClient();
    const run = async () => {
      for await (const item of client.subscribers.iterate(
        WAITLIST,
        { limit: 2 },
        { signal: controller.signal },
      )) {
        seen.push(item.id);
        if (seen.length === 2) controller.abort();
      }
    };
    await expect(run()).rejects.toBeInstanceOf(AbortError);
    expect(seen).toEqual(['sub_1', 'sub_2']);
    expect(requests).toHaveLength(1);
  });
});

describe('sleep', () => {
  it('resolves after the wait', async () => {
    await expect(sleep(1, undefined)).resolves.toBeUndefined();
  });

  it('rejects with the reason when aborted, before or during the wait', async () => {
    const reason = new Error('stop');
    await expect(sleep(60_000, AbortSignal.abort(reason))).rejects.toBe(reason);
    const controller = new AbortController();
    const waiting = sleep(60_000, controller.signal);
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
  });
});
