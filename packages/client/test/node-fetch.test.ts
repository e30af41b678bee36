/**
 * The client over Node's own fetch and a plain `node:http` stub, without msw: what the mocks
 * cannot show (a refused connection, a body that stalls on a real socket, headers as they
 * travel).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionError, TimeoutError, WaitlistClient } from '../src/index.js';
import { API_KEY, admitted, page, subscriber, UUID, WAITLIST } from './helpers.js';

let server: Server | undefined;

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

describe('over a real socket', () => {
  it('lists, with the key and the query on the wire', async () => {
    const seen: Array<{ url?: string; authorization?: string }> = [];
    const baseUrl = await listen((req, res) => {
      seen.push({ url: req.url, authorization: req.headers.authorization });
      res.writeHead(200, { 'Content-Type': 'application/json', 'RateLimit-Remaining': '41' });
      res.end(JSON.stringify(page([subscriber(1)])));
    });
    const client = new WaitlistClient({ apiKey: API_KEY, baseUrl });
    const result = await client.subscribers.list(WAITLIST, { q: 'a b' });
    expect(result.items).toEqual([subscriber(1)]);
    expect(result.rateLimit.remaining).toBe(41);
    expect(seen).toEqual([
      { url: `/v1/api/waitlists/${WAITLIST}/subscribers?q=a+b`, authorization: `Bearer ${API_KEY}` },
    ]);
  });

  it('admits with an Idempotency-Key, and reads Request-Id and Idempotent-Replayed', async () => {
    const seen: Array<{ method?: string; url?: string; key?: string | string[]; body: string }> = [];
    const baseUrl = await listen((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (chunk: string) => {
        body += chunk;
      });
      req.on('end', () => {
        seen.push({ method: req.method, url: req.url, key: req.headers['idempotency-key'], body });
        res.writeHead(200, {
          'Content-Type': 'application/json',
          'Request-Id': 'req_socket0123456789ab',
          'Idempotent-Replayed': 'true',
        });
        res.end(JSON.stringify({ items: [admitted(1)] }));
      });
    });
    const client = new WaitlistClient({ apiKey: API_KEY, baseUrl });
    const result = await client.subscribers.admit(WAITLIST, { subscriberIds: ['sub_1'] });
    expect(result).toMatchObject({ requestId: 'req_socket0123456789ab', idempotentReplayed: true });
    expect(seen).toEqual([
      {
        method: 'POST',
        url: `/v1/api/waitlists/${WAITLIST}/admissions`,
        key: expect.stringMatching(UUID),
        body: '{"subscriber_ids":["sub_1"]}',
      },
    ]);
  });

  it('times out a body that stalls after the headers', async () => {
    const baseUrl = await listen((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"items":[');
    });
    const client = new WaitlistClient({ apiKey: API_KEY, baseUrl, timeout: 100, maxRetries: 0 });
    await expect(client.subscribers.list(WAITLIST)).rejects.toBeInstanceOf(TimeoutError);
  });

  it('reports a refused connection as ConnectionError with the reason', async () => {
    const baseUrl = await listen(() => {});
    await new Promise((resolve) => server?.close(resolve));
    const client = new WaitlistClient({ apiKey: API_KEY, baseUrl, maxRetries: 0 });
    const error = await client.subscribers.list(WAITLIST).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).not.toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toMatch(/ECONNREFUSED/);
  });
});
