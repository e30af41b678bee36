/**
 * The shell of every server-rendered page: accessible, readable on a phone, light and dark, and
 * a strict Content Security Policy whose nonce lets only our own inline style and script run.
 */
import { randomBytes } from 'node:crypto';
import type { ComponentChildren } from 'preact';
import { renderToString } from 'preact-render-to-string';

export const BASE_CSS = `
:root { color-scheme: light dark; --fg: #1a1a1a; --bg: #fafafa; --card: #fff; --muted: #5c5c5c; --accent: #3b4cca; --border: #d6d6d6; }
@media (prefers-color-scheme: dark) { :root { --fg: #f0f0f0; --bg: #121212; --card: #1e1e1e; --muted: #b0b0b0; --accent: #9aa6ff; --border: #3a3a3a; } }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
main { max-width: 36rem; margin: 0 auto; padding: 2rem 1rem; }
.card { background: var(--card); border: 1px solid var(--border); border-radius: 12px; padding: 1.5rem; }
h1 { font-size: 1.5rem; line-height: 1.25; margin: 0 0 1rem; }
.muted { color: var(--muted); }
a { color: var(--accent); }
button, input { font: inherit; }
button { cursor: pointer; border: 1px solid var(--accent); background: var(--accent); color: var(--card); border-radius: 8px; padding: 0.5rem 1rem; min-height: 44px; }
button:focus-visible, input:focus-visible, a:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
input { width: 100%; padding: 0.5rem 0.75rem; border: 1px solid var(--muted); border-radius: 8px; background: var(--bg); color: var(--fg); min-height: 44px; }
`;

/**
 * Copy buttons, progressive: a button is hidden until this runs, the text it copies is always
 * visible and selectable. `data-copy` names the element whose value or text is copied,
 * `data-copied` what the status region then says.
 */
export const COPY_SCRIPT = `
document.querySelectorAll('[data-copy]').forEach(function (button) {
  button.hidden = false;
  button.addEventListener('click', function () {
    var status = document.getElementById('copy-status');
    var source = document.getElementById(button.getAttribute('data-copy'));
    var text = 'value' in source ? source.value : source.textContent;
    navigator.clipboard.writeText(text).then(function () { status.textContent = button.getAttribute('data-copied') || 'Copied.'; },
      function () { status.textContent = button.getAttribute('data-failed') || 'Copy failed: select the text and copy it.'; });
  });
});
`;

export interface Page {
  html: string;
  headers: Record<string, string>;
}

export function renderPage(
  title: string,
  body: (nonce: string) => ComponentChildren,
  {
    css = '',
    script = '',
    extraCsp = '',
    scriptSrc = '',
    referrerPolicy = 'no-referrer',
    lang = 'en',
    dir = 'ltr',
  }: {
    css?: string;
    script?: string;
    /** More directives, none of those set here (a repeated directive is ignored by browsers). */
    extraCsp?: string;
    /** Sources added to `script-src` beside the page's nonce. */
    scriptSrc?: string;
    referrerPolicy?: string;
    /** The language the page is written in, and its direction (docs/languages.md#pages-and-mails). */
    lang?: string;
    dir?: 'ltr' | 'rtl';
  } = {},
): Page {
  const nonce = randomBytes(16).toString('base64');
  const html = `<!doctype html>${renderToString(
    <html lang={lang} dir={dir}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{title}</title>
        <style nonce={nonce} dangerouslySetInnerHTML={{ __html: BASE_CSS + css }} />
      </head>
      <body>
        {body(nonce)}
        {script ? <script nonce={nonce} dangerouslySetInnerHTML={{ __html: script }} /> : null}
      </body>
    </html>,
  )}`;
  return {
    html,
    headers: {
      'Content-Security-Policy': `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'${scriptSrc ? ` ${scriptSrc}` : ''}; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'${extraCsp}`,
      'Referrer-Policy': referrerPolicy,
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-store',
    },
  };
}
