/**
 * The mailer's envelope (adapters/mailer.ts) against a real SMTP server on loopback: one
 * recipient, exactly the address given, whatever a quoted local part holds.
 */
import { checkEmail } from '@waitlistkit/protocol';
import { type SmtpServer, startSmtpServer } from '@waitlistkit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelopeRecipient, type Mailer, smtpMailer } from '../src/adapters/mailer.js';

let smtp: SmtpServer;
let mailer: Mailer;
beforeAll(async () => {
  smtp = await startSmtpServer();
  mailer = smtpMailer(smtp.url);
});
afterAll(async () => {
  mailer.close();
  await smtp.close();
});

const mail = (to: string) => ({
  from: 'Acme Launch <waitlist@acme.example>',
  to,
  subject: 'Confirm your address',
  text: 'Confirm: https://acme.example/c/x',
  html: '<p>Confirm</p>',
  messageId: `<${Math.random().toString(36).slice(2)}@acme.example>`,
});

/** Quoted local parts our email check accepts, each holding what an address list is made of. */
const HOSTILE = [
  '"x\\"<evil@attacker.example>\\"y"@victim.example',
  '"\\",<evil@attacker.example>,"@victim.example',
  '"a,b<evil@attacker.example>,c"@victim.example',
  '"evil@attacker.example>"@victim.example',
];

describe('the envelope of a mail', () => {
  it('carries exactly the one address, from the bare sender address', async () => {
    const sent = await mailer.send(mail('Ada.Lovelace+launch@example.com'));
    expect(sent).toEqual({ code: 250 });
    expect(smtp.mails.at(-1)?.to).toEqual(['Ada.Lovelace+launch@example.com']);
    expect(smtp.mails.at(-1)?.parsed.from?.value).toEqual([
      { address: 'waitlist@acme.example', name: 'Acme Launch' },
    ]);
  });

  it('sends nothing, anywhere, for a quoted local part the envelope cannot carry unchanged', async () => {
    const before = smtp.mails.length;
    for (const address of HOSTILE) {
      expect(checkEmail(address).ok, address).toBe(true);
      expect(envelopeRecipient(address), address).toBeUndefined();
      expect(await mailer.send(mail(address)), address).toEqual({
        error: 'not sent: the address cannot be written in a mail envelope unchanged',
        permanent: true,
      });
    }
    expect(smtp.mails.slice(before)).toEqual([]);
    expect(smtp.refused).toEqual([]);
  });

  it('keeps quoted local parts the envelope carries as they are', () => {
    for (const address of ['"a,b"@example.com', '"john doe"@example.com', "o'brien@example.com"])
      expect(envelopeRecipient(address), address).toBe(address);
  });
});
