/**
 * Item 4f's SMTP sink, a worker thread of the benchmark (lib/smtp-sink.ts starts it): testkit's
 * SMTP server, which parses every mail it accepts. It keeps the parsed mails until counted, so
 * they are dropped as they are counted, all but a summary of the first.
 */
import { parentPort } from 'node:worker_threads';
import { startSmtpServer } from '@waitlistkit/testkit';
import type { MailSummary, SinkMessage, SinkReply } from '../lib/smtp-sink.js';

const port = parentPort;
if (!port) throw new Error('the SMTP sink runs in a worker thread');

const smtp = await startSmtpServer();
let received = 0;
let first: MailSummary | undefined;
const reply = (message: SinkReply) => port.postMessage(message);
reply({ url: smtp.url });
port.on('message', (message: SinkMessage) => {
  if (message === 'count') {
    const mails = smtp.mails.splice(0);
    const mail = mails[0];
    if (!first && mail) {
      first = {
        to: mail.to,
        subject: mail.parsed.subject ?? '',
        listUnsubscribe: mail.parsed.headerLines.some((l) => l.key === 'list-unsubscribe'),
      };
    }
    received += mails.length;
    reply({ received, first });
  } else {
    smtp.close().then(() => process.exit(0));
  }
});
