/**
 * The confirmation mail (docs/subscribers.md#email-confirmation): plain text and simple HTML that say which waitlist it is,
 * why the person got it, and what to do if it was not them. Pure, so every word is tested
 * without a mail server. The link opens a page with a button; nothing confirms on a click alone.
 */
import { escapeHtml } from './html.js';

export interface ConfirmationMailContent {
  subject: string;
  text: string;
  html: string;
}

export function confirmationMailContent(waitlistName: string, link: string): ConfirmationMailContent {
  const name = waitlistName.replace(/[\r\n]+/g, ' ').trim();
  const subject = `Confirm your email for ${name}`;
  const text = [
    `Someone, hopefully you, signed up for the ${name} waitlist with this email address.`,
    '',
    'To confirm it, open this link and press the button:',
    link,
    '',
    'You keep your place in line either way; confirming counts you for whoever referred you.',
    "If it wasn't you, ignore this email: nothing more will be sent unless someone signs up again.",
    '',
  ].join('\n');
  const n = escapeHtml(name);
  const href = escapeHtml(link);
  const html = `<!doctype html>
<html><body style="font-family: system-ui, sans-serif; line-height: 1.5; color: #111">
<p>Someone, hopefully you, signed up for the <strong>${n}</strong> waitlist with this email address.</p>
<p><a href="${href}" style="display: inline-block; padding: 10px 16px; background: #111; color: #fff; text-decoration: none; border-radius: 6px">Confirm my email</a></p>
<p>Or open this link: <a href="${href}">${href}</a></p>
<p style="color: #555">You keep your place in line either way; confirming counts you for whoever referred you.
If it wasn't you, ignore this email: nothing more will be sent unless someone signs up again.</p>
</body></html>
`;
  return { subject, text, html };
}
