/**
 * An SMTP server on loopback (smtp-server) that parses every message it accepts (mailparser),
 * for the confirmation-mail tests. `rcpt` decides each recipient: accept, or refuse with a code
 * (4xx: try later; 5xx: never), so retries and permanent failures are tested against real SMTP.
 */
import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** The envelope's recipients. */
  to: string[];
  parsed: ParsedMail;
}

export interface SmtpServer {
  /** `smtp://user:pass@127.0.0.1:port`, for WAITLIST_SMTP_URL. */
  url: string;
  mails: ReceivedMail[];
  /** Recipients refused so far, with the code given. */
  refused: { to: string; code: number }[];
  close(): Promise<void>;
}

export interface SmtpServerOptions {
  /** undefined accepts; a number refuses the recipient with that SMTP code. */
  rcpt?: (address: string) => number | undefined;
}

export async function startSmtpServer(options: SmtpServerOptions = {}): Promise<SmtpServer> {
  const mails: ReceivedMail[] = [];
  const refused: SmtpServer['refused'] = [];
  const server = new SMTPServer({
    // Loopback only, no TLS: AUTH is still exercised, since the URL carries credentials.
    secure: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authOptional: false,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === 'user' && auth.password === 'pass') return callback(null, { user: 'user' });
      callback(new Error('Invalid username or password'));
    },
    onRcptTo(address, _session, callback) {
      const code = options.rcpt?.(address.address);
      if (code === undefined) return callback();
      refused.push({ to: address.address, code });
      callback(Object.assign(new Error(`refused ${address.address}`), { responseCode: code }));
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          mails.push({ to: session.envelope.rcptTo.map((r) => r.address), parsed });
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://user:pass@127.0.0.1:${port}`,
    mails,
    refused,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
