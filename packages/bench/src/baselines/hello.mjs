/**
 * The baselines of the throughput benchmark: the smallest JSON endpoint in Express 5 and in plain
 * node:http, on 127.0.0.1 and a free port, printed as `listening PORT`. Same keep-alive timeout
 * as the reference server.
 */
import { createServer } from 'node:http';
import express from 'express';

const kind = process.argv[2];
const body = JSON.stringify({ status: 'ok' });

let handler;
if (kind === 'express') {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.get('/', (_req, res) => {
    res.json({ status: 'ok' });
  });
  handler = app;
} else if (kind === 'node') {
  handler = (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
    res.end(body);
  };
} else {
  console.error('usage: hello.mjs express|node');
  process.exit(2);
}

const server = createServer(handler);
server.keepAliveTimeout = 5000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening ${server.address().port}\n`);
});
const stop = () => {
  server.close(() => process.exit(0));
  server.closeIdleConnections();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
