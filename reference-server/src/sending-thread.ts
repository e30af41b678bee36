/**
 * The sending thread (docs/webhooks.md#where-deliveries-run): a worker thread of `serve` that makes the outbox's
 * attempts, webhooks over HTTP and mail over SMTP, so that connections, TLS, answers and slow
 * endpoints are its event loop's work, never the one answering sign-ups. It holds no state
 * worth keeping: the outbox's rows, leases and decisions stay on the main thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Logger } from './adapters/logger.js';
import { smtpMailer } from './adapters/mailer.js';
import { dnsResolver, parseDnsServers } from './adapters/resolver.js';
import type { FromThread, SendingSettings, ToThread } from './adapters/sending-messages.js';
import { webhookSender } from './adapters/webhook-sender.js';

const port = parentPort;
if (!port) throw new Error('sending-thread.js runs as a worker thread of `serve`.');
const settings = workerData as SendingSettings;
const post = (message: FromThread) => port.postMessage(message);

const log: Logger = {
  request: () => undefined,
  info: (message, fields) => post({ log: 'info', message, fields }),
  error: (message, fields) => post({ log: 'error', message, fields }),
};
const webhook = webhookSender({
  allowPrivate: settings.allowPrivate,
  resolver: dnsResolver(parseDnsServers(settings.dnsServers)),
  log,
});
const mailer = settings.smtpUrl ? smtpMailer(settings.smtpUrl) : undefined;

port.on('message', async ({ id, attempt }: ToThread) => {
  const result =
    attempt.kind === 'webhook'
      ? await webhook.send(attempt.url, attempt.headers, attempt.body, attempt.timeoutMs)
      : mailer
        ? await mailer.send(attempt.mail)
        : { error: 'not sent: no WAITLIST_SMTP_URL', permanent: false };
  post({ id, result });
});
