/**
 * A receiver as a tenant would write one, on node:http over loopback: the raw body read from
 * the request, `req.headers` (IncomingHttpHeaders) handed over as they are, deliveries signed
 * by webhooks.sign and sent with fetch.
 */
import { Buffer } from 'node:buffer';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type WebhookEvent, WebhookPayloadError, WebhookVerificationError, webhooks } from '../src/index.js';
import { eventBody, newSecret } from './webhook-fixtures.js';

const secret = newSecret();
const received: WebhookEvent[] = [];
let server: Server;
let url: string;

async function rawBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    try {
      received.push(webhooks.unwrap(await rawBody(req), req.headers, secret));
      res.writeHead(204).end();
    } catch (error) {
      if (error instanceof WebhookVerificationError) res.writeHead(400).end(error.reason);
      else if (error instanceof WebhookPayloadError) res.writeHead(422).end(error.path);
      else res.writeHead(500).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const post = (body: string, headers: Record<string, string>) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

describe('a node:http receiver', () => {
  it('accepts a signed delivery and gets the typed event', async () => {
    const body = eventBody('subscriber.admitted');
    const answer = await post(body, webhooks.sign({ body }, secret));
    expect(answer.status).toBe(204);
    expect(received.at(-1)).toEqual(JSON.parse(body));
  });

  it('refuses a delivery signed with another secret', async () => {
    const body = eventBody('subscriber.created');
    const answer = await post(body, webhooks.sign({ body }, newSecret()));
    expect([answer.status, await answer.text()]).toEqual([400, 'no_matching_signature']);
  });

  it('refuses one without headers', async () => {
    const answer = await post(eventBody('subscriber.created'), {});
    expect([answer.status, await answer.text()]).toEqual([400, 'missing_header']);
  });

  it('answers a genuine body that is not an event with its own status', async () => {
    const body = '{"hello":"world"}';
    const answer = await post(body, webhooks.sign({ body }, secret));
    expect([answer.status, await answer.text()]).toEqual([422, 'type']);
  });
});
