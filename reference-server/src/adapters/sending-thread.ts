/**
 * The main thread's side of the sending thread (../sending-thread.ts, docs/webhooks.md#where-deliveries-run): a
 * webhook sender and a mailer whose attempts run there. The outbox (app/outbox.ts) uses them as
 * it would the senders themselves; what it decides, reads and writes stays here.
 *
 * A thread that dies (a crash, an exhausted heap) is logged, and the attempts it had under way
 * fail as attempts that could not be made: the outbox records nothing for them, so their leases
 * run out and they are attempted again (docs/webhooks.md#the-outbox). The next attempt starts a
 * new thread. Nothing is lost; an attempt the endpoint did receive may come twice, as at-least-once
 * allows.
 */
import { Worker } from 'node:worker_threads';
import type { Logger } from './logger.js';
import type { Mailer, MailResult } from './mailer.js';
import type { Attempt, FromThread, SendingSettings, ToThread } from './sending-messages.js';
import type { Sender, SendResult } from './webhook-sender.js';

/**
 * How long past an attempt's own budget the main thread waits for its result: the thread bounds
 * every attempt itself, so only a thread stuck in a loop gets here, and then the attempt fails
 * rather than holding the outbox's slot, and shutdown, forever.
 */
const GRACE_MS = 5_000;
/** The mailer's own budget (adapters/mailer.ts), for the same purpose: connection, greeting, each read. */
const MAIL_BUDGET_MS = 3 * 15_000;

interface Waiting {
  resolve(result: SendResult | MailResult): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

export class SendingThread {
  private worker: Worker | undefined;
  private readonly waiting = new Map<number, Waiting>();
  private next = 0;
  private closing = false;

  constructor(
    private readonly settings: SendingSettings,
    private readonly log: Logger,
    private readonly script = new URL('./sending-thread.js', import.meta.url),
  ) {}

  readonly webhook: Sender = {
    send: (url, headers, body, timeoutMs) =>
      this.ask({ kind: 'webhook', url, headers, body, timeoutMs }, timeoutMs) as Promise<SendResult>,
  };

  readonly mailer: Mailer = {
    send: (mail) => this.ask({ kind: 'mail', mail }, MAIL_BUDGET_MS) as Promise<MailResult>,
    // The thread's transport closes with the thread.
    close: () => undefined,
  };

  /** Ends the thread; the outbox has stopped first, so no attempt is under way. */
  async close(): Promise<void> {
    this.closing = true;
    await this.worker?.terminate();
  }

  private ask(attempt: Attempt, budgetMs: number): Promise<SendResult | MailResult> {
    if (this.closing) return Promise.reject(new Error('the sending thread is closed'));
    const id = this.next++;
    const thread = this.thread();
    return new Promise((resolve, reject) => {
      // A thread this late is stuck: it is ended, which fails its other attempts too, and the next
      // attempt starts another.
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new Error(`the sending thread gave no result within ${budgetMs + GRACE_MS} ms`));
        void thread.terminate();
      }, budgetMs + GRACE_MS);
      this.waiting.set(id, { resolve, reject, timer });
      thread.postMessage({ id, attempt } satisfies ToThread);
    });
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.script, { workerData: this.settings });
    // It never keeps the process alive by itself: `serve` ends it, or the process ends with it.
    worker.unref();
    worker.on('message', (message: FromThread) => {
      if ('log' in message) {
        this.log[message.log](message.message, message.fields);
        return;
      }
      const waiting = this.waiting.get(message.id);
      if (!waiting) return;
      this.waiting.delete(message.id);
      clearTimeout(waiting.timer);
      waiting.resolve(message.result);
    });
    worker.on('error', (error) => this.log.error('the sending thread failed', { error: error.message }));
    worker.on('exit', (code) => {
      if (this.worker === worker) this.worker = undefined;
      const lost = [...this.waiting.values()];
      this.waiting.clear();
      for (const w of lost) {
        clearTimeout(w.timer);
        w.reject(new Error('the sending thread stopped during the attempt'));
      }
      if (!this.closing)
        this.log.error('the sending thread stopped; the next attempt starts another', {
          code,
          attempts_to_retry: lost.length,
        });
    });
    this.worker = worker;
    return worker;
  }
}
