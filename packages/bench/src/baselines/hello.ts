/**
 * The baselines of the throughput benchmark: the smallest JSON endpoint in Express 5 and in plain
 * node:http, on 127.0.0.1 and a free port, printed as `listening PORT`. Same keep-alive timeout
 * as the reference server.
 */
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';

const kind = process.argv[2];
const body = JSON.stringify({ status: 'ok' });

function expressHello(): RequestListener {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.get('/', (_req, res) => {
    res.json({ status: 'ok' });
  });
  return app;
}

const nodeHello: RequestListener = (_req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
  res.end(body);
};

if (kind !== 'express' && kind !== 'node') {
  console.error('usage: hello.js express|node');
  process.exit(2);
}
const server = createServer(kind === 'express' ? expressHello() : nodeHello);
server.keepAliveTimeout = 5000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`);
});
const stop = () => {
  server.close(() => process.exit(0));
  server.closeIdleConnections();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
