/**
 * The hosted status page, {app_url}/s/<status_token>: position, referral code and count, and a
 * share link with a copy button. The URL is a capability, so the page sends no Referer, is not
 * cached and is not indexed.
 */
import type { Words } from '../../domain/texts/index.js';
import { COPY_SCRIPT, type Page, renderPage } from '../../web/page.js';

export interface StatusPageData {
  waitlistName: string;
  /** Place in line; null once the subscriber has been let in. */
  position: number | null;
  total: number;
  referralCode: string;
  referralCount: number;
  shareUrl: string | undefined;
  /** False while the email awaits confirmation (docs/subscribers.md#email-confirmation). */
  confirmed: boolean;
}

// On a phone a label sits above its value: "Empfehlungscode" or "uitnodigingscode" beside a
// referral code is wider than the card (docs/languages.md#pages-and-mails).
const CSS = `
.position { font-size: 3rem; font-weight: 700; line-height: 1; margin: 0; }
dl { display: grid; grid-template-columns: auto 1fr; gap: 0.25rem 1rem; margin: 1.5rem 0; }
dt { color: var(--muted); } dd { margin: 0; font-weight: 600; }
@media (max-width: 30rem) { dl { grid-template-columns: 1fr; } dd { margin-block-end: 0.5rem; } }
.share { display: flex; gap: 0.5rem; flex-wrap: wrap; } .share input { flex: 1 1 14rem; }
code { font-size: 1.1em; letter-spacing: 0.08em; }
.notice { border-inline-start: 4px solid currentColor; padding: 0.5rem 0.75rem; margin: 0 0 1rem; }
`;

/** The status page in the subscriber's language (docs/languages.md#pages-and-mails). */
export function statusPage(data: StatusPageData, { lang, dir, say }: Words): Page {
  const waitlist = data.waitlistName;
  return renderPage(
    say('statusTitle', { waitlist }),
    () => (
      <main>
        <div class="card">
          {data.confirmed ? null : (
            <p class="notice" role="status">
              <strong>{say('checkInbox')}</strong> {say('checkInboxText')}
            </p>
          )}
          {data.position === null ? (
            <>
              <h1>{say('admittedHeading')}</h1>
              <p>{say('admittedText', { waitlist })}</p>
            </>
          ) : (
            <>
              <h1>{say('statusTitle', { waitlist })}</h1>
              <p class="position" aria-describedby="position-of">
                #{new Intl.NumberFormat(lang).format(data.position)}
              </p>
              <p id="position-of" class="muted">
                {say('positionOf', { count: data.total })}
              </p>
            </>
          )}
          <dl>
            <dt>{say('referralCode')}</dt>
            <dd>
              <code>{data.referralCode}</code>
            </dd>
            <dt>{say('referrals')}</dt>
            <dd>{say('referralsJoined', { count: data.referralCount })}</dd>
          </dl>
          {data.shareUrl ? (
            <section aria-labelledby="share-heading">
              <h2 id="share-heading">{say('shareHeading')}</h2>
              <label class="muted" for="share-link">
                {say('shareLabel')}
              </label>
              <div class="share">
                <input id="share-link" type="url" readOnly value={data.shareUrl} dir="ltr" />
                <button
                  type="button"
                  data-copy="share-link"
                  data-copied={say('linkCopied')}
                  data-failed={say('copyFailed')}
                  hidden
                >
                  {say('copyLink')}
                </button>
              </div>
              <p id="copy-status" role="status" aria-live="polite" class="muted" />
            </section>
          ) : null}
        </div>
      </main>
    ),
    { css: CSS, script: COPY_SCRIPT, lang, dir },
  );
}

/** A status or unsubscribe link that is not valid, in the language the browser asks for. */
export function notFoundPage({ lang, dir, say }: Words): Page {
  return renderPage(
    say('notFoundTitle'),
    () => (
      <main>
        <div class="card">
          <h1>{say('notFoundTitle')}</h1>
          <p>{say('notFoundText')}</p>
        </div>
      </main>
    ),
    { lang, dir },
  );
}
