/**
 * A visitor's sign-up through the widget in headless Chromium (items 3 and 9): a fresh tab of the
 * landing page, the email field filled at once or typed key by key, a click on "Join the
 * waitlist", and the clock from that click, as the page sees it, to `waitlist:success`.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { GatesResponse } from '@waitlistkit/protocol';
import { en } from '@waitlistkit/widget';
import type { BrowserContext } from 'playwright-core';

export interface SignUp {
  /** Milliseconds from the click on submit to `waitlist:success`. */
  took: number;
  /** Milliseconds from the focus to the last keystroke (0 when the field was filled at once). */
  typed: number;
  /** The POSTs to …/subscribers: each one's status and round trip. */
  posts: { status: number | undefined; ms: number }[];
  /** The answers of the POSTs to …/gates. */
  gates: (GatesResponse | undefined)[];
}

/**
 * One sign-up of `email` on the page at `url`, in a fresh tab. With `keystrokes` (when each key
 * lands, in ms after the focus), the visitor focuses the field and types the address; without,
 * the field is filled at once (focus and value together). The form must then say it succeeded.
 */
export async function signUp(
  context: BrowserContext,
  url: string,
  email: string,
  keystrokes?: readonly number[],
): Promise<SignUp> {
  const page = await context.newPage();
  const subscribes: Promise<SignUp['posts'][number]>[] = [];
  const gates: Promise<GatesResponse | undefined>[] = [];
  page.on('request', (request) => {
    if (request.method() !== 'POST') return;
    const path = new URL(request.url()).pathname;
    if (path.endsWith('/subscribers')) {
      subscribes.push(
        request.response().then(async (response) => {
          await response?.finished();
          // Request sent to response received in full: the server's part, plus loopback.
          const { requestStart, responseEnd } = request.timing();
          return { status: response?.status(), ms: responseEnd - requestStart };
        }),
      );
    } else if (path.endsWith('/gates'))
      gates.push(request.response().then((r) => r?.json() as Promise<GatesResponse | undefined>));
  });
  try {
    await page.goto(url);
    await page.evaluate(() => {
      // Only the click on the submit button starts the clock (the shadow root is open).
      document.addEventListener(
        'click',
        (event) => {
          const target = event.composedPath()[0];
          if (target instanceof Element && target.closest('button[type=submit]'))
            window.clickedAt ??= performance.now();
        },
        true,
      );
      document.addEventListener('waitlist:success', () => {
        window.took = performance.now() - (window.clickedAt ?? Number.NaN);
      });
      document.addEventListener('waitlist:error', (e) => {
        window.failed = (e as CustomEvent<{ message: string }>).detail.message;
      });
    });
    const field = page.locator('waitlist-form >> input[type=email]');
    let typed = 0;
    if (keystrokes === undefined) {
      await field.fill(email);
    } else {
      await field.focus();
      const t0 = performance.now();
      for (const [i, key] of [...email].entries()) {
        const wait = t0 + (keystrokes[i] ?? 0) - performance.now();
        // The person's own pace: this wait is the scenario, not a wait for the widget.
        if (wait > 0) await sleep(wait);
        await page.keyboard.type(key);
      }
      typed = performance.now() - t0;
      const value = await field.inputValue();
      if (value !== email) throw new Error(`typed ${JSON.stringify(value)}, meant ${JSON.stringify(email)}`);
    }
    await page.locator('waitlist-form >> button[type=submit]').click();
    await page.waitForFunction(() => window.took !== undefined || window.failed !== undefined, null, {
      timeout: 60_000,
    });
    const { took, failed } = await page.evaluate(() => ({ took: window.took, failed: window.failed }));
    if (failed || took === undefined) throw new Error(`sign-up of ${email} failed: ${failed}`);
    const status = await page.locator('waitlist-form >> [role=status]').textContent();
    if (status?.trim() !== en.success)
      throw new Error(`after the sign-up of ${email} the form says ${JSON.stringify(status)}`);
    return { took, typed, posts: await Promise.all(subscribes), gates: await Promise.all(gates) };
  } finally {
    await page.close();
  }
}
