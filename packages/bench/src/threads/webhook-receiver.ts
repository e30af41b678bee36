/**
 * Item 8's webhook receiver, a worker thread of the benchmark (lib/webhook-receiver.ts starts it):
 * a node:http server on loopback that answers every POST 204 at once and records when each
 * delivery arrived and for which email. In a thread of its own, the benchmark's load loop on the
 * main thread does not delay its clock readings.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parentPort } from 'node:worker_threads';
import { type Arrival, nowMs, type ReceiverMessage, type ReceiverReply } from '../lib/webhook-receiver.js';

const port = parentPort;
if (!port) throw new Error('the webhook receiver runs in a worker thread');

let arrivals: Arrival[] = [];
let malformed = 0;
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const at = nowMs();
    try {
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        type: string;
        data?: { email?: string };
      };
      arrivals.push({ at, email: event.data?.email ?? '', type: event.type });
    } catch {
      malformed++;
    }
    res.writeHead(204).end();
  });
});
server.keepAliveTimeout = 60_000;
const reply = (message: ReceiverReply) => port.postMessage(message);
server.listen(0, '127.0.0.1', () => reply({ port: (server.address() as AddressInfo).port }));
port.on('message', (message: ReceiverMessage) => {
  if (message === 'take') {
    reply({ arrivals, malformed });
    arrivals = [];
    malformed = 0;
  } else {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  }
});
