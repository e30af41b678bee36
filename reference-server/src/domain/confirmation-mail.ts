/**
 * The confirmation mail (docs/subscribers.md#email-confirmation): plain text and simple HTML that say which waitlist it is,
 * why the person got it, and what to do if it was not them. Pure, so every word is tested
 * without a mail server. The link opens a page with a button; nothing confirms on a click alone.
 */

import { escapeHtml } from './html.js';
import type { Words } from './texts/index.js';

export interface ConfirmationMailContent {
  subject: string;
  text: string;
  html: string;
}

export function confirmationMailContent(
  waitlistName: string,
  link: string,
  { lang, dir, say }: Words,
): ConfirmationMailContent {
  const waitlist = waitlistName.replace(/[\r\n]+/g, ' ').trim();
  const subject = say('confirmMailSubject', { waitlist });
  const text = [
    say('confirmMailIntro', { waitlist }),
    '',
    say('confirmMailOpen'),
    link,
    '',
    say('confirmMailKeep'),
    say('confirmMailIgnore'),
    '',
  ].join('\n');
  // The name in bold: the text is split around it, each part escaped.
  const [before = '', after = ''] = say('confirmMailIntro', { waitlist: '\u0000' }).split('\u0000');
  const href = escapeHtml(link);
  const html = `<!doctype html>
<html lang="${escapeHtml(lang)}" dir="${dir}"><body style="font-family: system-ui, sans-serif; line-height: 1.5; color: #111">
<p>${escapeHtml(before)}<strong>${escapeHtml(waitlist)}</strong>${escapeHtml(after)}</p>
<p><a href="${href}" style="display: inline-block; padding: 10px 16px; background: #111; color: #fff; text-decoration: none; border-radius: 6px">${escapeHtml(say('confirmButton'))}</a></p>
<p>${escapeHtml(say('confirmMailOr'))} <a href="${href}" dir="ltr">${href}</a></p>
<p style="color: #555">${escapeHtml(say('confirmMailKeep'))}
${escapeHtml(say('confirmMailIgnore'))}</p>
</body></html>
`;
  return { subject, text, html };
}
