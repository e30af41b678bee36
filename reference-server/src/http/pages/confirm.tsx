/**
 * The confirmation page, {app_url}/c/<confirm_token> (docs/subscribers.md#email-confirmation). Opening it confirms nothing:
 * mail scanners and link previews open links, so only the button's POST does. Like the status
 * page it is a capability: no Referer, no cache, no index.
 */
import type { Words } from '../../domain/texts/index.js';
import { type Page, renderPage } from '../../web/page.js';

export interface ConfirmPageData {
  waitlistName: string;
  confirmed: boolean;
  /** The status page, when the waitlist has one. */
  statusUrl: string | undefined;
}

export function confirmPage(data: ConfirmPageData, { lang, dir, say }: Words): Page {
  const waitlist = data.waitlistName;
  return renderPage(
    say('confirmTitle', { waitlist }),
    () => (
      <main>
        <div class="card">
          {data.confirmed ? (
            <>
              <h1>{say('confirmedHeading')}</h1>
              <p>{say('confirmedText', { waitlist })}</p>
              {data.statusUrl ? (
                <p>
                  <a href={data.statusUrl}>{say('seeYourPlace')}</a>
                </p>
              ) : null}
            </>
          ) : (
            <>
              <h1>{say('confirmHeading')}</h1>
              <p>{say('confirmText', { waitlist })}</p>
              <form method="post">
                <button type="submit">{say('confirmButton')}</button>
              </form>
            </>
          )}
        </div>
      </main>
    ),
    { lang, dir },
  );
}

/** A page of a heading and a sentence, for the links that lead nowhere. */
function notice(words: Words, title: string, heading: string, text: string): Page {
  return renderPage(
    title,
    () => (
      <main>
        <div class="card">
          <h1>{heading}</h1>
          <p>{text}</p>
        </div>
      </main>
    ),
    { lang: words.lang, dir: words.dir },
  );
}

export const unknownConfirmationPage = (words: Words): Page =>
  notice(words, words.say('badLinkTitle'), words.say('badLinkHeading'), words.say('badLinkText'));

/** The button pressed too often from one address (429, with Retry-After). */
export const tooManyConfirmationsPage = (words: Words): Page =>
  notice(words, words.say('tooManyHeading'), words.say('tooManyHeading'), words.say('tooManyText'));
