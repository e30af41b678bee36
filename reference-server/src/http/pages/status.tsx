/**
 * The hosted status page, {app_url}/s/<status_token>: position, referral code and count, and a
 * share link with a copy button. The URL is a capability, so the page sends no Referer, is not
 * cached and is not indexed.
 */
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

const CSS = `
.position { font-size: 3rem; font-weight: 700; line-height: 1; margin: 0; }
dl { display: grid; grid-template-columns: auto 1fr; gap: 0.25rem 1rem; margin: 1.5rem 0; }
dt { color: var(--muted); } dd { margin: 0; font-weight: 600; }
.share { display: flex; gap: 0.5rem; flex-wrap: wrap; } .share input { flex: 1 1 14rem; }
code { font-size: 1.1em; letter-spacing: 0.08em; }
.notice { border-left: 4px solid currentColor; padding: 0.5rem 0.75rem; margin: 0 0 1rem; }
`;

const number = (n: number) => n.toLocaleString('en-US');

export function statusPage(data: StatusPageData): Page {
  const people = data.referralCount === 1 ? 'person has' : 'people have';
  return renderPage(
    `Your place on ${data.waitlistName}`,
    () => (
      <main>
        <div class="card">
          {data.confirmed ? null : (
            <p class="notice" role="status">
              <strong>Check your inbox:</strong> we sent you a link to confirm your email address. You keep
              your place while you wait.
            </p>
          )}
          {data.position === null ? (
            <>
              <h1>You're in</h1>
              <p>
                {data.waitlistName} has let you in: you are no longer waiting. Look out for their message on
                how to get started.
              </p>
            </>
          ) : (
            <>
              <h1>Your place on {data.waitlistName}</h1>
              <p class="position" aria-describedby="position-of">
                #{number(data.position)}
              </p>
              <p id="position-of" class="muted">
                of {number(data.total)} {data.total === 1 ? 'person' : 'people'} on the waitlist
              </p>
            </>
          )}
          <dl>
            <dt>Your referral code</dt>
            <dd>
              <code>{data.referralCode}</code>
            </dd>
            <dt>Referrals</dt>
            <dd>
              {number(data.referralCount)} {people} joined with your code
            </dd>
          </dl>
          {data.shareUrl ? (
            <section aria-labelledby="share-heading">
              <h2 id="share-heading">Share your link to move up</h2>
              <label class="muted" for="share-link">
                Your share link
              </label>
              <div class="share">
                <input id="share-link" type="url" readOnly value={data.shareUrl} />
                <button type="button" data-copy="share-link" data-copied="Link copied." hidden>
                  Copy link
                </button>
              </div>
              <p id="copy-status" role="status" aria-live="polite" class="muted" />
            </section>
          ) : null}
        </div>
      </main>
    ),
    { css: CSS, script: COPY_SCRIPT },
  );
}

export function notFoundPage(): Page {
  return renderPage('Page not found', () => (
    <main>
      <div class="card">
        <h1>Page not found</h1>
        <p>
          This status link is not valid. Check that you copied the whole link from your sign-up confirmation.
        </p>
      </div>
    </main>
  ));
}
