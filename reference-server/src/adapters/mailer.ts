/**
 * Sending one mail over SMTP (docs/self-hosting.md#mail) with nodemailer, the ecosystem's SMTP client: it
 * speaks STARTTLS, AUTH and pooling, which we would otherwise write and get wrong. One pooled
 * transport per server; each attempt is bounded in time like a webhook's. A 5xx answer is
 * permanent (the address or the message is refused: retrying will not change it); anything
 * else is worth another attempt on the outbox's schedule.
 */
import nodemailer from 'nodemailer';
import MimeNode from 'nodemailer/lib/mime-node';

export interface Mail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  /** Headers of the message besides the usual ones (a message's List-Unsubscribe). */
  headers?: Record<string, string>;
}

export type MailResult = { code: number } | { error: string; permanent: boolean };

export interface Mailer {
  send(mail: Mail): Promise<MailResult>;
  close(): void;
}

/** `smtp://` or `smtps://`, credentials in the URL; anything else is refused before `serve` starts. */
export function checkSmtpUrl(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'WAITLIST_SMTP_URL is not a URL; give smtp://user:pass@host:port or smtps://…';
  }
  if (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:')
    return `WAITLIST_SMTP_URL must start with smtp:// or smtps://, not ${parsed.protocol}//`;
  if (parsed.hostname === '') return 'WAITLIST_SMTP_URL has no host.';
  return undefined;
}

/**
 * The recipient as the SMTP envelope will carry it: exactly the one address given, or undefined
 * when nodemailer's address parser would read it otherwise. A quoted local part may hold `,`, `<`
 * and `>` (our email check allows RFC 5322's quoted strings); the envelope is given explicitly so
 * such an address can never become a second recipient, and one the parser would rewrite (it turns
 * `<` and `>` inside quotes into spaces) is not sent at all rather than sent somewhere else.
 */
export function envelopeRecipient(address: string): string | undefined {
  // Asked of nodemailer's own envelope code, so the check is what the send will do.
  const { to } = new MimeNode().setEnvelope({ to: [address] }).getEnvelope();
  return to.length === 1 && to[0] === address ? address : undefined;
}

/** The bare address of WAITLIST_MAIL_FROM (`Acme <waitlist@acme.example>` or `waitlist@acme.example`). */
const bareAddress = (from: string) => from.match(/<([^<>]+)>\s*$/)?.[1] ?? from.trim();

export function smtpMailer(url: string, timeoutMs = 15_000): Mailer {
  const transport = nodemailer.createTransport({
    url,
    pool: true,
    maxConnections: 2,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });
  return {
    async send(mail) {
      const to = envelopeRecipient(mail.to);
      if (to === undefined) {
        return {
          error: 'not sent: the address cannot be written in a mail envelope unchanged',
          permanent: true,
        };
      }
      try {
        const info = await transport.sendMail({
          from: mail.from,
          to: mail.to,
          envelope: { from: bareAddress(mail.from), to: [to] },
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          messageId: mail.messageId,
          // Automatic mail: no out-of-office replies to it (RFC 3834).
          headers: { ...mail.headers, 'Auto-Submitted': 'auto-generated' },
        });
        const code = Number.parseInt(String(info.response).slice(0, 3), 10);
        return { code: Number.isFinite(code) ? code : 250 };
      } catch (error) {
        const e = error as { message?: string; responseCode?: number };
        return {
          error: e.message ?? String(error),
          permanent: typeof e.responseCode === 'number' && e.responseCode >= 500,
        };
      }
    },
    close: () => transport.close(),
  };
}
