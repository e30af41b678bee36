/**
 * The unsubscribe page, {app_url}/s/<status_token>/unsubscribe (docs/messages.md#unsubscribe):
 * opening it changes nothing (mail scanners open links), its button's POST unsubscribes, and so
 * does a mail client's one-click POST (RFC 8058) to the same address. No script: a form and a
 * button. A capability like the status page: no Referer, no cache, no index.
 */
import type { Words } from '../../domain/texts/index.js';
import { type Page, renderPage } from '../../web/page.js';

export interface UnsubscribePageData {
  waitlistName: string;
  unsubscribed: boolean;
}

export function unsubscribePage(data: UnsubscribePageData, { lang, dir, say }: Words): Page {
  const waitlist = data.waitlistName;
  return renderPage(
    say('unsubscribeTitle', { waitlist }),
    () => (
      <main>
        <div class="card">
          {data.unsubscribed ? (
            <>
              <h1>{say('unsubscribedHeading')}</h1>
              <p>{say('unsubscribedText', { waitlist })}</p>
            </>
          ) : (
            <>
              <h1>{say('unsubscribeHeading')}</h1>
              <p>{say('unsubscribeText', { waitlist })}</p>
              <form method="post">
                <button type="submit">{say('unsubscribeButton')}</button>
              </form>
            </>
          )}
        </div>
      </main>
    ),
    { lang, dir },
  );
}
