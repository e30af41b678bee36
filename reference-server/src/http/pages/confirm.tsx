/**
 * The confirmation page, {app_url}/c/<confirm_token> (docs/subscribers.md#email-confirmation). Opening it confirms nothing:
 * mail scanners and link previews open links, so only the button's POST does. Like the status
 * page it is a capability: no Referer, no cache, no index.
 */
import { type Page, renderPage } from '../../web/page.js';

export interface ConfirmPageData {
  waitlistName: string;
  confirmed: boolean;
  /** The status page, when the waitlist has one. */
  statusUrl: string | undefined;
}

export function confirmPage(data: ConfirmPageData): Page {
  return renderPage(`Confirm your email for ${data.waitlistName}`, () => (
    <main>
      <div class="card">
        {data.confirmed ? (
          <>
            <h1>Your email is confirmed</h1>
            <p>Thank you: you are on the {data.waitlistName} waitlist, and your address is confirmed.</p>
            {data.statusUrl ? (
              <p>
                <a href={data.statusUrl}>See your place in line</a>
              </p>
            ) : null}
          </>
        ) : (
          <>
            <h1>Confirm your email</h1>
            <p>
              Press the button to confirm that this address signed up for the {data.waitlistName} waitlist. If
              it wasn't you, close this page: nothing happens.
            </p>
            <form method="post">
              <button type="submit">Confirm my email</button>
            </form>
          </>
        )}
      </div>
    </main>
  ));
}

export function unknownConfirmationPage(): Page {
  return renderPage('Link not valid', () => (
    <main>
      <div class="card">
        <h1>This link is not valid</h1>
        <p>
          Check that you opened the whole link from the confirmation email, or sign up again to get a new one.
        </p>
      </div>
    </main>
  ));
}

/** The button pressed too often from one address (429, with Retry-After). */
export function tooManyConfirmationsPage(): Page {
  return renderPage('Too many attempts', () => (
    <main>
      <div class="card">
        <h1>Too many attempts</h1>
        <p>
          This address has pressed confirmation buttons too often. Wait a minute, then press the button again.
        </p>
      </div>
    </main>
  ));
}
