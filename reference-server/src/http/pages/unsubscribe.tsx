/**
 * The unsubscribe page, {app_url}/s/<status_token>/unsubscribe (docs/messages.md#unsubscribe):
 * opening it changes nothing (mail scanners open links), its button's POST unsubscribes, and so
 * does a mail client's one-click POST (RFC 8058) to the same address. No script: a form and a
 * button. A capability like the status page: no Referer, no cache, no index.
 */
import { type Page, renderPage } from '../../web/page.js';

export interface UnsubscribePageData {
  waitlistName: string;
  unsubscribed: boolean;
}

export function unsubscribePage(data: UnsubscribePageData): Page {
  return renderPage(`Unsubscribe from ${data.waitlistName}`, () => (
    <main>
      <div class="card">
        {data.unsubscribed ? (
          <>
            <h1>You are unsubscribed</h1>
            <p>
              The {data.waitlistName} waitlist sends you no more welcome or referral emails. You keep your
              place in line, and you still hear when you are let in.
            </p>
          </>
        ) : (
          <>
            <h1>Unsubscribe</h1>
            <p>
              Press the button to stop the welcome and referral emails of the {data.waitlistName} waitlist.
              You keep your place in line, and you still hear when you are let in.
            </p>
            <form method="post">
              <button type="submit">Unsubscribe</button>
            </form>
          </>
        )}
      </div>
    </main>
  ));
}
