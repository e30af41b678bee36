// @vitest-environment happy-dom
import { verifyPow } from '@waitlistkit/protocol';
import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { en } from '../src/ui/locale.js';
import { mount, type WaitlistHandle } from '../src/ui/mount.js';
import type { MountOptions } from '../src/ui/options.js';
import { BASE_URL, ENDPOINT, fakeService, type ServiceOptions, WAITLIST_ID } from './support/fake-service.js';
import { pageService } from './support/page-service.js';

// Every form asks its description first: none, unless a test says otherwise.
const { server } = pageService();

// The real solver, counting the solves it finished: a main-thread solve runs in real time (its
// WebAssembly and its yields are not the page's timers), so a test on a fake clock waits for this.
const solver = vi.hoisted(() => ({ finished: 0 }));
vi.mock('../src/solver/solve.js', async (real) => {
  const actual = await real<typeof import('../src/solver/solve.js')>();
  return {
    ...actual,
    solvePow: (...args: Parameters<typeof actual.solvePow>) =>
      actual.solvePow(...args).finally(() => solver.finished++),
  };
});

let host: HTMLElement;
let handle: WaitlistHandle | undefined;
let errors: MockInstance<typeof console.error>;
/** A main-thread solve on a machine whose cores are busy elsewhere: real time, sized for that. */
const SOLVE = { timeout: 20_000, interval: 20 };
beforeEach(() => {
  window.happyDOM.setURL('https://site.example/launch?utm=x');
  host = document.createElement('div');
  document.body.append(host);
  errors = vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  handle?.destroy();
  handle = undefined;
  host.remove();
  server.resetHandlers();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

const $ = <T extends Element = HTMLElement>(selector: string) =>
  (host.shadowRoot as ShadowRoot).querySelector<T>(selector);
const input = () => $<HTMLInputElement>('input') as HTMLInputElement;
const button = () => $<HTMLButtonElement>('button') as HTMLButtonElement;
const status = () => $('[part=status]')?.textContent;
const fieldError = () => $('[part=error]')?.textContent;

function start(service: ServiceOptions = {}, options: Partial<MountOptions> = {}) {
  const fake = fakeService(service);
  server.use(fake.handler, fake.gates);
  handle = mount(host, { waitlistId: WAITLIST_ID, baseUrl: BASE_URL, ...options });
  return fake;
}
function submit(email = 'ada@example.com') {
  input().value = email;
  ($<HTMLFormElement>('form') as HTMLFormElement).requestSubmit();
}
/** Events of the widget, as a page's analytics would see them (bubbling and composed, on document). */
function listen() {
  const seen: { type: string; detail: Record<string, unknown> }[] = [];
  const record = (event: Event) => seen.push({ type: event.type, detail: (event as CustomEvent).detail });
  for (const type of ['waitlist:success', 'waitlist:error', 'waitlist:gate'])
    document.addEventListener(type, record);
  return seen;
}

describe('the form', () => {
  it('is a labelled field and a submit button, with a polite live region', () => {
    start();
    const field = input();
    const label = $<HTMLLabelElement>('label[for]');
    expect(label?.textContent).toBe(en.label);
    expect(label?.htmlFor).toBe(field.id);
    expect(field).toMatchObject({
      type: 'email',
      name: 'email',
      required: true,
      placeholder: en.placeholder,
    });
    expect(field.getAttribute('autocomplete')).toBe('email');
    expect(button()).toMatchObject({ type: 'submit', textContent: en.button });
    expect(button().form).toBe($('form'));
    expect(field.form).toBe($('form'));
    const live = $('[part=status]');
    expect(live?.getAttribute('role')).toBe('status');
    expect(live?.getAttribute('aria-live')).toBe('polite');
    for (const part of ['form', 'input', 'button', 'status']) expect($(`[part~=${part}]`)).not.toBeNull();
  });

  // Enter in the field submits a native form with a submit button (implicit submission); happy-dom
  // does not implement it, so the browser tests cover the key itself.
  it('submits through its native form and says it is checking', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const fake = fakeService();
    server.use(
      http.post(ENDPOINT, async () => held.then(() => undefined)),
      fake.handler,
      fake.gates,
    );
    handle = mount(host, { waitlistId: WAITLIST_ID, baseUrl: BASE_URL });
    input().focus();
    input().value = 'ada@example.com';
    button().click();
    await vi.waitFor(() => expect(status()).toBe(en.checking));
    expect(button().disabled).toBe(true);
    expect($('form')?.getAttribute('aria-busy')).toBe('true');
    release();
    await vi.waitFor(() => expect(status()).toBe(en.success));
  });

  it('shows the share link, copies it, links the status page and moves focus there', async () => {
    const events = listen();
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    start();
    submit();
    await vi.waitFor(() => expect(status()).toBe(en.success));
    const share = $<HTMLInputElement>('#s') as HTMLInputElement;
    expect(share.value).toBe('https://site.example/launch?utm=x&ref=K7M2QX');
    expect(share.readOnly).toBe(true);
    expect((host.shadowRoot as ShadowRoot).activeElement).toBe(share);
    expect($<HTMLAnchorElement>('a[part=link]')?.href).toBe('https://app.waitlist.test/s/tok_status');
    expect($('[part=status]')?.className).toBe('good');
    button().click();
    await vi.waitFor(() => expect(button().textContent).toBe(en.copied));
    expect(writeText).toHaveBeenCalledWith('https://site.example/launch?utm=x&ref=K7M2QX');
    expect(events).toEqual([
      {
        type: 'waitlist:success',
        detail: {
          waitlistId: WAITLIST_ID,
          confirmEmail: false,
          referralCode: 'K7M2QX',
          shareUrl: 'https://site.example/launch?utm=x&ref=K7M2QX',
          statusUrl: 'https://app.waitlist.test/s/tok_status',
        },
      },
    ]);
  });

  it('asks the visitor to check their inbox when the waitlist confirms addresses', async () => {
    const events = listen();
    start({ confirmEmail: true });
    submit();
    await vi.waitFor(() => expect(status()).toBe(en.confirm));
    expect(en.confirm).toContain('Check your inbox');
    expect(events[0]?.detail).toMatchObject({ confirmEmail: true });
  });

  it('without referrals: no share link and no status link, focus on the message', async () => {
    start({ referrals: false });
    submit();
    await vi.waitFor(() => expect(status()).toBe(en.success));
    expect($('#s')).toBeNull();
    expect($('a')).toBeNull();
    expect((host.shadowRoot as ShadowRoot).activeElement).toBe($('[part=status]'));
  });

  it('forwards ?ref from the page address as it was on load, under the configured name too', async () => {
    window.happyDOM.setURL('https://site.example/?ref=k7m2qx');
    const fake = start();
    // A single-page app's router tidies the address after load.
    history.replaceState(null, '', '/');
    submit();
    // The submit waits for the form's description (asked at mount): the sign-up is done, not only sent.
    await vi.waitFor(() => expect(status()).toBe(en.success));
    handle?.destroy();
    window.happyDOM.setURL('https://site.example/?invite=ABCDEF&ref=K7M2QX');
    handle = mount(host, { waitlistId: WAITLIST_ID, baseUrl: BASE_URL, refParam: 'invite' });
    submit();
    await vi.waitFor(() =>
      expect($<HTMLInputElement>('#s')?.value).toBe('https://site.example/?invite=K7M2QX&ref=K7M2QX'),
    );
    expect(fake.requests.map((r) => r.body.referral_code)).toEqual(['K7M2QX', 'ABCDEF']);
  });

  it('counts the challenge wait in its live region and fires waitlist:gate', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    const events = listen();
    start({ challenge: { minAgeMs: 1000 } });
    submit();
    await vi.advanceTimersByTimeAsync(0);
    await vi.waitFor(() => expect(status()).toBe('Verifying… 0%'));
    await vi.advanceTimersByTimeAsync(500);
    expect(status()).toBe('Verifying… 50%');
    await vi.advanceTimersByTimeAsync(500);
    await vi.waitFor(() => expect(status()).toBe(en.success));
    expect(events[0]).toEqual({
      type: 'waitlist:gate',
      detail: { waitlistId: WAITLIST_ID, gate: 'challenge', round: 1, minAgeMs: 1000 },
    });
  });

  it('solves Proof of Work (verified by the service) and reports the gate', async () => {
    const events = listen();
    const fake = start({ pow: { difficulty: 10 } });
    submit();
    await vi.waitFor(() => expect(status()).toBe(en.success));
    const pow = fake.requests[1]?.body.pow;
    expect(verifyPow(pow?.nonce as string, pow?.solution as number, 10)).toBe(true);
    expect(events.map((e) => e.type)).toEqual(['waitlist:gate', 'waitlist:success']);
    expect(events[0]?.detail).toEqual({ waitlistId: WAITLIST_ID, gate: 'pow', round: 1, difficulty: 10 });
  });
});

describe('the form: errors', () => {
  const answer = (status: number, code?: string, headers?: Record<string, string>) =>
    start({ script: [{ status, body: code ? { error: { code, message: code } } : undefined, headers }] });

  it('400 invalid_email: at the field, linked to it, focus back in the field', async () => {
    const events = listen();
    answer(400, 'invalid_email');
    submit();
    await vi.waitFor(() => expect(fieldError()).toBe(en.invalidEmail));
    expect(input().getAttribute('aria-invalid')).toBe('true');
    expect(input().getAttribute('aria-describedby')).toBe($('[part=error]')?.id);
    expect((host.shadowRoot as ShadowRoot).activeElement).toBe(input());
    expect(status()).toBe('');
    expect(events).toEqual([
      {
        type: 'waitlist:error',
        detail: {
          waitlistId: WAITLIST_ID,
          code: 'invalid_email',
          status: 400,
          retryAfter: undefined,
          message: 'invalid_email',
        },
      },
    ]);
  });

  it('400 invalid_request: at the field too', async () => {
    answer(400, 'invalid_request');
    submit();
    await vi.waitFor(() => expect(fieldError()).toBe(en.invalidRequest));
  });

  it('a field error clears on the next try', async () => {
    start({
      script: [
        { status: 400, body: { error: { code: 'invalid_email', message: '' } } },
        { status: 403, body: { error: { code: 'geo_restricted', message: '' } } },
      ],
    });
    submit('ada@nowhere');
    await vi.waitFor(() => expect(fieldError()).toBe(en.invalidEmail));
    submit();
    await vi.waitFor(() => expect(status()).toBe(en.geoRestricted));
    expect(fieldError()).toBe('');
    expect(input().getAttribute('aria-invalid')).toBeNull();
  });

  it('403 geo_restricted', async () => {
    answer(403, 'geo_restricted');
    submit();
    await vi.waitFor(() => expect(status()).toBe(en.geoRestricted));
    expect($('[part=status]')?.className).toBe('bad');
  });

  it('404: the fix goes to the console, the visitor gets a plain message', async () => {
    answer(404, 'not_found');
    submit();
    await vi.waitFor(() => expect(status()).toBe(en.notFound));
    const logged = errors.mock.calls.map((call) => String(call[0])).join('\n');
    expect(logged).toContain(`--waitlist ${WAITLIST_ID} --origins https://site.example`);
    expect(logged).toContain("this page's origin https://site.example");
  });

  it('404 cross-origin, hidden by CORS: found out by the no-cors probe', async () => {
    server.use(
      http.post(ENDPOINT, ({ request }) =>
        request.mode === 'no-cors' ? new HttpResponse(null) : HttpResponse.error(),
      ),
    );
    handle = mount(host, { waitlistId: WAITLIST_ID, baseUrl: BASE_URL });
    submit();
    await vi.waitFor(() => expect(status()).toBe(en.notFound));
    expect(String(errors.mock.calls[0]?.[0])).toContain('pnpm -s waitlist-server waitlist update');
  });

  it('413: refused, said in the live region', async () => {
    answer(413, 'payload_too_large');
    submit();
    await vi.waitFor(() => expect(status()).toBe(en.invalidRequest));
    expect(fieldError()).toBe('');
  });

  it('an address without @ is refused at the field without a request', async () => {
    const fake = start();
    submit('nobody');
    await vi.waitFor(() => expect(fieldError()).toBe(en.invalidEmail));
    expect(fake.requests).toHaveLength(0);
  });

  it('429: "try again in N s", counting down, the button disabled meanwhile', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    const events = listen();
    answer(429, 'rate_limit_exceeded', { 'Retry-After': '3' });
    submit();
    await vi.waitFor(() => expect(status()).toBe('Too many attempts. Try again in 3 s.'));
    expect(button().disabled).toBe(true);
    expect(events[0]?.detail).toMatchObject({ code: 'rate_limit_exceeded', status: 429, retryAfter: 3 });
    await vi.advanceTimersByTimeAsync(1000);
    expect(status()).toBe('Too many attempts. Try again in 2 s.');
    await vi.advanceTimersByTimeAsync(2000);
    expect(status()).toBe('');
    expect(button().disabled).toBe(false);
  });

  it('500: retried with backoff, then a server error', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const fake = start({ script: Array.from({ length: 4 }, () => ({ status: 500 })) });
    submit();
    await vi.advanceTimersByTimeAsync(20_000);
    await vi.waitFor(() => expect(status()).toBe(en.serverError));
    expect(fake.requests).toHaveLength(4);
  });

  it('network failure: retried, then "could not reach the server"', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    let calls = 0;
    server.use(
      http.post(ENDPOINT, () => {
        calls++;
        return HttpResponse.error();
      }),
    );
    handle = mount(host, { waitlistId: WAITLIST_ID, baseUrl: BASE_URL });
    submit();
    await vi.advanceTimersByTimeAsync(20_000);
    await vi.waitFor(() => expect(status()).toBe(en.networkError));
    expect(calls).toBe(8);
  });
});

describe('the form: lifecycle and integration', () => {
  it('reset() goes back to an empty form, aborting what was in flight', async () => {
    let signal: AbortSignal | undefined;
    server.use(
      http.post(ENDPOINT, ({ request }) => {
        signal = request.signal;
        return new Promise(() => {});
      }),
    );
    handle = mount(host, { waitlistId: WAITLIST_ID, baseUrl: BASE_URL });
    submit();
    await vi.waitFor(() => expect(signal).toBeDefined());
    handle.reset();
    await vi.waitFor(() => expect(signal?.aborted).toBe(true));
    await vi.waitFor(() => expect(button().disabled).toBe(false));
    expect(input().value).toBe('');
    expect(status()).toBe('');
  });

  it('reset() after a success shows the form again', async () => {
    start();
    submit();
    await vi.waitFor(() => expect(status()).toBe(en.success));
    handle?.reset();
    await vi.waitFor(() => expect($('form')).not.toBeNull());
    expect(status()).toBe('');
  });

  it('destroy() aborts the request, empties the shadow root and sends no late event', async () => {
    const events = listen();
    let signal: AbortSignal | undefined;
    let answer = (_: Response) => {};
    server.use(
      http.post(ENDPOINT, ({ request }) => {
        signal = request.signal;
        return new Promise<Response>((resolve) => {
          answer = resolve;
        });
      }),
    );
    handle = mount(host, { waitlistId: WAITLIST_ID, baseUrl: BASE_URL });
    submit();
    await vi.waitFor(() => expect(signal).toBeDefined());
    handle.destroy();
    expect(signal?.aborted).toBe(true);
    expect((host.shadowRoot as ShadowRoot).childNodes).toHaveLength(0);
    answer(
      HttpResponse.json(
        { status: 'accepted', status_token: '', referral_code: '', status_url: '' },
        { status: 202 },
      ),
    );
    await Promise.resolve();
    expect(events).toEqual([]);
  });

  it('destroy() during Proof of Work stops the solver', async () => {
    const events = listen();
    const fake = start({ pow: { difficulty: 32 } }, { workers: 0 });
    submit();
    await vi.waitFor(() => expect(status()).toMatch(/^Verifying/));
    const signal = fake.requests[0]?.signal as AbortSignal;
    expect(signal.aborted).toBe(false);
    handle?.destroy();
    // The sign-up's signal is what stops the solver (solver tests: abort terminates workers).
    expect(signal.aborted).toBe(true);
    expect(fake.requests).toHaveLength(1);
    expect(events.map((e) => e.type)).toEqual(['waitlist:gate']);
  });

  it('speaks the page’s language: a whole locale, or single texts', async () => {
    start(
      { script: [{ status: 403, body: { error: { code: 'geo_restricted', message: '' } } }] },
      {
        locale: { label: 'E-Mail-Adresse', button: 'Eintragen', geoRestricted: 'Nicht in Ihrer Region.' },
      },
    );
    expect($('label')?.textContent).toBe('E-Mail-Adresse');
    expect(button().textContent).toBe('Eintragen');
    expect(input().placeholder).toBe(en.placeholder);
    submit();
    await vi.waitFor(() => expect(status()).toBe('Nicht in Ihrer Region.'));
  });

  it('takes its theme as a class, light/dark forced or following the system', () => {
    handle = mount(host, { waitlistId: WAITLIST_ID, baseUrl: BASE_URL, theme: 'dark' });
    expect($('.w')?.className).toBe('w dark');
    // One adopted, constructed sheet (a page's style-src CSP cannot block it), no <style> element.
    const sheets = (host.shadowRoot as ShadowRoot).adoptedStyleSheets;
    expect(sheets).toHaveLength(1);
    expect($('style')).toBeNull();
    const style = [...(sheets[0] as CSSStyleSheet).cssRules].map((rule) => rule.cssText).join('\n');
    expect(style).toContain('prefers-color-scheme:dark');
    expect(style).toContain('var(--waitlist-accent');
    expect(style).toContain('var(--waitlist-radius');
  });

  it('throws a TypeError for options that cannot work, naming them', () => {
    expect(() => mount(host, { waitlistId: 'nope', baseUrl: 'ftp://x' })).toThrow(
      /waitlistId "nope".*baseUrl "ftp:\/\/x"/,
    );
  });

  it('never renders into a shadow root the page made', () => {
    const other = document.createElement('div');
    other.attachShadow({ mode: 'open' });
    expect(() => mount(other, { waitlistId: WAITLIST_ID, baseUrl: BASE_URL })).toThrow(/shadow root/);
  });

  it('renders texts as text, never as HTML', () => {
    handle = mount(host, {
      waitlistId: WAITLIST_ID,
      baseUrl: BASE_URL,
      locale: { label: '<img src=x onerror="window.pwned=1">' },
    });
    expect($('img')).toBeNull();
    expect($('label')?.textContent).toBe('<img src=x onerror="window.pwned=1">');
  });
});

describe('the form: gates prefetched on focus (docs/gates.md#gates-before-the-submit)', () => {
  const gatesOn = { challenge: { minAgeMs: 50 }, pow: { difficulty: 8 } };

  it('prepares once on the first focus; the submit is a single request', async () => {
    const fake = start(gatesOn, { workers: 0 });
    input().focus();
    input().blur();
    input().focus();
    await vi.waitFor(() => expect(fake.gateRequests).toBe(1));
    submit();
    await vi.waitFor(() => expect(status()).toBe(en.success));
    expect(fake.gateRequests).toBe(1);
    expect(fake.requests).toHaveLength(1);
  });

  it('prepares again on a focus once the tokens near expiry, and the submit stays a single request', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const fake = start(gatesOn, { workers: 0 });
    input().focus();
    await vi.waitFor(() => expect(fake.gateRequests).toBe(1));
    input().blur();
    // Within the tokens' life: no second prepare.
    vi.setSystemTime(Date.now() + 8 * 60_000);
    input().focus();
    input().blur();
    expect(fake.gateRequests).toBe(1);
    // Nine minutes after the first: the submit would discard them, so they are prepared again.
    vi.setSystemTime(Date.now() + 61_000);
    input().focus();
    await vi.waitFor(() => expect(fake.gateRequests).toBe(2));
    input().blur();
    input().focus();
    submit();
    await vi.waitFor(() => expect(status()).toBe(en.success));
    expect(fake.gateRequests).toBe(2);
    expect(fake.requests).toHaveLength(1);
  });

  it('says nothing while the visitor types; a click before the gates are ready shows their progress', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    const gates = { challenge: { minAgeMs: 1000 }, pow: { difficulty: 8 } };
    const seen = listen();
    // Typing through the whole prepare: no status, no events. The page's clock stands still while
    // the solve runs, so the Challenge's age is then still to wait out, on that clock.
    const typed = start(gates, { workers: 0 });
    const solves = solver.finished;
    input().focus();
    await vi.waitFor(() => expect(solver.finished).toBe(solves + 1), SOLVE);
    expect(typed.gateRequests).toBe(1);
    await vi.advanceTimersByTimeAsync(1500);
    expect(vi.getTimerCount()).toBe(0);
    expect(status()).toBe('');
    expect(seen).toEqual([]);
    submit();
    await vi.waitFor(() => expect(status()).toBe(en.success), SOLVE);
    expect(typed.requests).toHaveLength(1);
    expect(seen.map((e) => e.type)).toEqual(['waitlist:success']);
    handle?.destroy();
    seen.length = 0;

    // A click right after the focus waits for the prepare, and says so: its solve, then its wait
    // (round 0, before any 428).
    const clicked = start(gates, { workers: 0 });
    input().focus();
    submit();
    await vi.waitFor(() => expect(seen.some((e) => e.detail.gate === 'challenge')).toBe(true), SOLVE);
    expect(status()).toMatch(/^Verifying… \d+%$/);
    await vi.advanceTimersByTimeAsync(1500);
    await vi.waitFor(() => expect(status()).toBe(en.success), SOLVE);
    expect(clicked.requests).toHaveLength(1);
    expect(
      seen.filter((e) => e.type === 'waitlist:gate').map((e) => [e.detail.gate, e.detail.round]),
    ).toEqual([
      ['pow', 0],
      ['challenge', 0],
    ]);
  });

  it('nothing is prepared on a page where the field is never focused', async () => {
    const fake = start(gatesOn, { workers: 0 });
    submit();
    await vi.waitFor(() => expect(status()).toBe(en.success));
    expect(fake.gateRequests).toBe(0);
    expect(fake.requests).toHaveLength(3);
  });
});
