/**
 * What the webhook tests share: an HTTP receiver on loopback that records what it is sent, and
 * waiting for what the server's delivery worker does in its own time.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { until } from './helpers.js';

export interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Reply = number | [number, Record<string, string>];

/** An HTTP receiver on loopback; `answer` decides each reply, and may hold it. */
export async function receiver(answer: (r: Received) => Promise<Reply> | Reply) {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (c: string) => {
      body += c;
    });
    req.on('end', async () => {
      const r = { path: req.url ?? '', headers: req.headers, body };
      received.push(r);
      const reply = await answer(r);
      const [status, headers] = Array.isArray(reply) ? reply : [reply, {}];
      res.writeHead(status, headers).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A receiver that answers as `respond` writes (any status, any body, or nothing at all), for
 * hostile answers. It counts the connections it accepted and those closed since, so a test can
 * tell whether the sender connected at all and whether it let go of its sockets.
 */
export async function rawReceiver(respond: (req: IncomingMessage, res: ServerResponse) => void) {
  const requests: string[] = [];
  const counts = { connections: 0, closed: 0 };
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? '');
    req.resume();
    res.on('error', () => undefined);
    respond(req, res);
  });
  // Idle connections stay open for a minute: whether the sender reuses one is its own choice.
  server.keepAliveTimeout = 60_000;
  server.on('connection', (socket) => {
    counts.connections++;
    socket.on('error', () => undefined);
    socket.on('close', () => {
      counts.closed++;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    requests,
    counts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Polls `read` until `done` says its answer is the awaited one (reads that need I/O). */
export function deliveriesUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 20_000,
): Promise<T> {
  return until(
    'the deliveries',
    async () => {
      const value = await read();
      return done(value) ? { value } : undefined;
    },
    timeoutMs,
  ).then((found) => found.value);
}
