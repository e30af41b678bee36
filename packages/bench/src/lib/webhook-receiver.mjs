/**
 * A webhook receiver on loopback for item 8: a node:http server in a worker thread of its own (so
 * the benchmark's load loop on the main thread does not delay its clock readings) that answers
 * every POST 204 at once and records when each delivery arrived and for which email. Times are
 * `nowMs()`, the monotonic clock every thread of the process shares, so they compare with times
 * the main thread takes.
 */
import { createServer } from 'node:http';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

/** Milliseconds on the monotonic clock (the same in every thread). */
export const nowMs = () => Number(process.hrtime.bigint()) / 1e6;

if (!isMainThread && workerData?.webhookReceiver) {
  /** `[arrival ms, email, type]` of each delivery since the last `take`. */
  let arrivals = [];
  let malformed = 0;
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const at = nowMs();
      try {
        const event = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        arrivals.push([at, event.data?.email, event.type, req.headers['webhook-id']]);
      } catch {
        malformed++;
      }
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));
  parentPort.on('message', (message) => {
    if (message === 'take') {
      parentPort.postMessage({ arrivals, malformed });
      arrivals = [];
      malformed = 0;
    } else if (message === 'stop') {
      server.closeAllConnections();
      server.close(() => process.exit(0));
    }
  });
}

/**
 * Starts the receiver. Returns `{ url, take(), stop() }`: `take()` resolves to the deliveries
 * that arrived since the previous call, `{ arrivals: [[ms, email, type, webhookId]…], malformed }`.
 */
export async function startReceiver() {
  const worker = new Worker(new URL(import.meta.url), { workerData: { webhookReceiver: true } });
  const replies = [];
  let failed;
  worker.on('message', (m) => replies.shift()?.resolve(m));
  worker.on('error', (error) => {
    failed = error;
    for (const r of replies.splice(0)) r.reject(error);
  });
  const next = () =>
    failed
      ? Promise.reject(failed)
      : new Promise((resolve, reject) => {
          replies.push({ resolve, reject });
        });
  const { port } = await next();
  return {
    url: `http://127.0.0.1:${port}/webhook`,
    take() {
      const reply = next();
      worker.postMessage('take');
      return reply;
    },
    async stop() {
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      worker.postMessage('stop');
      await exited;
    },
  };
}
