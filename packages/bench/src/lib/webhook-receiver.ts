/**
 * A webhook receiver on loopback for item 8, in a worker thread (threads/webhook-receiver.ts).
 * Times are `nowMs()`, the monotonic clock every thread of the process shares, so they compare
 * with times the main thread takes.
 */
import { helperThread } from './worker-replies.js';

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
  const thread = helperThread<ReceiverMessage, ReceiverReply>('webhook-receiver');
  const started = await thread.next();
  if (!('port' in started)) throw new Error('the webhook receiver did not say its port');
  return {
    url: `http://127.0.0.1:${started.port}/webhook`,
    async take() {
      const taken = await thread.ask('take');
      if ('port' in taken) throw new Error('the webhook receiver answered out of turn');
      return taken;
    },
    stop: () => thread.end('stop'),
  };
}
