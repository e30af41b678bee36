import type { Subscriber } from '@waitlistkit/protocol';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { NotFoundError } from '../src/index.js';
import {
  errorResponse,
  makeClient,
  pagedList,
  SUBSCRIBERS_URL,
  server,
  subscriber,
  useServer,
  WAITLIST,
} from './helpers.js';

useServer();

async function collect(iterable: AsyncIterable<Subscriber>): Promise<string[]> {
  const ids: string[] = [];
  for await (const item of iterable) ids.push(item.id);
  return ids;
}

const ids = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `sub_${from + i}`);
const pagesAsked = (requests: URL[]) => requests.map((url) => url.searchParams.get('page'));

describe('iterate', () => {
  it('an empty waitlist: one request, nothing yielded', async () => {
    const { requests } = pagedList(0);
    expect(await collect(makeClient().client.subscribers.iterate(WAITLIST, { limit: 3 }))).toEqual([]);
    expect(requests).toHaveLength(1);
  });

  it('an exact multiple of the limit: stops without asking for an empty page', async () => {
    const { requests } = pagedList(6);
    expect(await collect(makeClient().client.subscribers.iterate(WAITLIST, { limit: 3 }))).toEqual(ids(1, 6));
    expect(pagesAsked(requests)).toEqual(['1', '2']);
  });

  it('a last partial page', async () => {
    const { requests } = pagedList(7);
    expect(await collect(makeClient().client.subscribers.iterate(WAITLIST, { limit: 3 }))).toEqual(ids(1, 7));
    expect(pagesAsked(requests)).toEqual(['1', '2', '3']);
    expect(requests.map((url) => url.searchParams.get('limit'))).toEqual(['3', '3', '3']);
  });

  it('fewer subscribers than one page', async () => {
    const { requests } = pagedList(2);
    expect(await collect(makeClient().client.subscribers.iterate(WAITLIST, { limit: 3 }))).toEqual(ids(1, 2));
    expect(requests).toHaveLength(1);
  });

  it('asks for pages of 200 by default', async () => {
    const { requests } = pagedList(450);
    expect(await collect(makeClient().client.subscribers.iterate(WAITLIST))).toEqual(ids(1, 450));
    expect(pagesAsked(requests)).toEqual(['1', '2', '3']);
    expect(requests.map((url) => url.searchParams.get('limit'))).toEqual(['200', '200', '200']);
  });

  it('follows the limit the service applied, not the one asked for', async () => {
    const { requests } = pagedList(450);
    // The service clamps 500 to 200: stopping after page 1 would lose 250 subscribers.
    expect(await collect(makeClient().client.subscribers.iterate(WAITLIST, { limit: 500 }))).toEqual(
      ids(1, 450),
    );
    expect(pagesAsked(requests)).toEqual(['1', '2', '3']);
  });

  it('sends q with every page', async () => {
    const { requests } = pagedList(5);
    await collect(makeClient().client.subscribers.iterate(WAITLIST, { q: '@example.com', limit: 2 }));
    expect(requests.map((url) => url.searchParams.get('q'))).toEqual([
      '@example.com',
      '@example.com',
      '@example.com',
    ]);
  });

  it('stops on an empty page even when total promised more', async () => {
    const requests: URL[] = [];
    server.use(
      http.get(SUBSCRIBERS_URL, ({ request }) => {
        const url = new URL(request.url);
        requests.push(url);
        const n = Number(url.searchParams.get('page'));
        // Subscribers were removed while iterating: total is stale.
        const items = n === 1 ? [subscriber(1), subscriber(2)] : [];
        return HttpResponse.json({ items, total: 10, page: n, limit: 2 });
      }),
    );
    expect(await collect(makeClient().client.subscribers.iterate(WAITLIST, { limit: 2 }))).toEqual(ids(1, 2));
    expect(pagesAsked(requests)).toEqual(['1', '2']);
  });

  it('ends even if the service echoes the wrong page number', async () => {
    const requests: URL[] = [];
    server.use(
      http.get(SUBSCRIBERS_URL, ({ request }) => {
        requests.push(new URL(request.url));
        return HttpResponse.json({ items: [subscriber(1), subscriber(2)], total: 4, page: 1, limit: 2 });
      }),
    );
    await collect(makeClient().client.subscribers.iterate(WAITLIST, { limit: 2 }));
    expect(requests).toHaveLength(2);
  });

  it('is lazy: a page is fetched only when the loop reaches it', async () => {
    const { requests } = pagedList(10);
    const iterator = makeClient().client.subscribers.iterate(WAITLIST, { limit: 3 });
    expect(requests).toHaveLength(0);
    const seen: string[] = [];
    for await (const item of iterator) {
      seen.push(item.id);
      expect(requests).toHaveLength(Math.ceil(seen.length / 3));
      if (seen.length === 4) break;
    }
    expect(seen).toEqual(ids(1, 4));
    expect(requests).toHaveLength(2);
  });

  it('throws the error of a later page after yielding the earlier ones', async () => {
    const seen: string[] = [];
    server.use(
      http.get(SUBSCRIBERS_URL, ({ request }) => {
        const n = Number(new URL(request.url).searchParams.get('page'));
        if (n === 2) return errorResponse(404, 'not_found');
        return HttpResponse.json({ items: [subscriber(1), subscriber(2)], total: 4, page: n, limit: 2 });
      }),
    );
    const run = async () => {
      for await (const item of makeClient().client.subscribers.iterate(WAITLIST, { limit: 2 }))
        seen.push(item.id);
    };
    await expect(run()).rejects.toBeInstanceOf(NotFoundError);
    expect(seen).toEqual(ids(1, 2));
  });

  it('checks its arguments when the first page is asked for', async () => {
    const { requests } = pagedList(3);
    await expect(collect(makeClient().client.subscribers.iterate(WAITLIST, { limit: 0 }))).rejects.toThrow(
      TypeError,
    );
    expect(requests).toHaveLength(0);
  });
});
