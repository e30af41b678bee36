/**
 * A webhook receiver on loopback for item 8, in a worker thread (threads/webhook-receiver.ts).
 * Times are `nowMs()`, the monotonic clock every thread of the process shares, so they compare
 * with times the main thread takes.
 */
import { Worker } from 'node:worker_threads';
import { distFile } from './paths.js';

/** Milliseconds on the monotonic clock (the same in every thread). */
export const nowMs = () => Number(process.hrtime.bigint()) / 1e6;

/** One delivery: when it arrived, the subscriber's email, the event's type. */
export interface Arrival {
  at: number;
  email: string;
  type: string;
}

export interface Deliveries {
  arrivals: Arrival[];
  /** Deliveries whose body was not JSON. */
  malformed: number;
}

export type ReceiverMessage = 'take' | 'stop';
export type ReceiverReply = { port: number } | Deliveries;

export interface Receiver {
  url: string;
  /** The deliveries that arrived since the previous call. */
  take(): Promise<Deliveries>;
  stop(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const worker = new Worker(distFile('webhook-receiver'));
  const replies: { resolve(reply: ReceiverReply): void; reject(error: Error): void }[] = [];
  let failed: Error | undefined;
  worker.on('message', (m: ReceiverReply) => replies.shift()?.resolve(m));
  worker.on('error', (error) => {
    failed = error;
    for (const r of replies.splice(0)) r.reject(error);
  });
  const next = () =>
    failed
      ? Promise.reject(failed)
      : new Promise<ReceiverReply>((resolve, reject) => {
          replies.push({ resolve, reject });
        });
  const send = (message: ReceiverMessage) => worker.postMessage(message);
  const started = await next();
  if (!('port' in started)) throw new Error('the webhook receiver did not say its port');
  return {
    url: `http://127.0.0.1:${started.port}/webhook`,
    async take() {
      const reply = next();
      send('take');
      const taken = await reply;
      if ('port' in taken) throw new Error('the webhook receiver answered out of turn');
      return taken;
    },
    async stop() {
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      send('stop');
      await exited;
    },
  };
}
