/**
 * The sign-up form. One class component (no hooks: preact's hooks would add 1.5 kB to the
 * script tag). It renders into the widget's shadow root and reports to the page through DOM
 * events on the host element.
 */
import type { AcceptedSignup } from '@waitlistkit/protocol';
import { Component, createRef, Fragment, h } from 'preact';
import { STALE_MS } from '../core/decide.js';
import { WaitlistError } from '../core/errors.js';
import { type PreparedGates, type Progress, prepareGates, subscribe } from '../core/subscribe.js';
import { format, type LocaleKey } from './locale.js';
import type { WidgetConfig } from './options.js';
import { readReferral, safeLink, shareLink } from './referral.js';

export interface FormProps {
  config: WidgetConfig;
  /** Receives the `waitlist:*` events. */
  host: HTMLElement;
  /** Filled with the form's reset (preact 11 hands `ref` to class components as a plain prop). */
  controls: { reset?: () => void };
}

interface FormState {
  busy: boolean;
  signup?: AcceptedSignup;
  /** The page address with `?ref=CODE`; empty when referrals are off. */
  link: string;
  /** The live region's text. */
  status: string;
  bad: boolean;
  /** A 400's message, shown at the field. */
  fieldError: string;
  /** Seconds until a rate-limited visitor may try again. */
  wait: number;
  copied: boolean;
}

const idle: FormState = {
  busy: false,
  signup: undefined,
  link: '',
  status: '',
  bad: false,
  fieldError: '',
  wait: 0,
  copied: false,
};

/** Error classes' names to texts (names survive minification; classes are named explicitly). */
const MESSAGES: Record<string, LocaleKey> = {
  InvalidEmailError: 'invalidEmail',
  InvalidRequestError: 'invalidRequest',
  GeoRestrictedError: 'geoRestricted',
  NotFoundError: 'notFound',
  ServerError: 'serverError',
  NetworkError: 'networkError',
  TooManyRoundsError: 'tooManyRounds',
};

export class Form extends Component<FormProps, FormState> {
  override state = idle;
  #controller?: AbortController;
  /** The gates passed while the visitor types; one per sign-up, aborted with the form. */
  #prepared?: Promise<PreparedGates | undefined>;
  /** When `#prepared` was started (clock time). */
  #since?: number;
  #timer?: ReturnType<typeof setInterval>;
  #seen?: IntersectionObserver;
  #gate = '';
  #input = createRef<HTMLInputElement>();
  #root = createRef<HTMLDivElement>();
  /** Read when the form appears: a single-page app may rewrite the address afterwards. */
  #referral = readReferral(location.href, this.props.config.refParam);

  #emit(name: 'success' | 'error' | 'gate', detail: object): void {
    this.props.host.dispatchEvent(
      new CustomEvent(`waitlist:${name}`, {
        bubbles: true,
        composed: true,
        detail: { waitlistId: this.props.config.waitlistId, ...detail },
      }),
    );
  }

  #text(key: LocaleKey, values: Record<string, number> = {}): string {
    return format(this.props.config.locale[key], values);
  }

  /** Abort the sign-up in flight (its workers stop), stop timers, show an empty form. */
  reset = (): void => {
    this.#stop();
    this.#prepared = this.#since = undefined;
    this.#gate = '';
    this.setState(idle);
    if (this.#input.current) this.#input.current.value = '';
  };

  override componentDidMount(): void {
    this.props.controls.reset = this.reset;
    if (this.props.config.prepare === 'visible') {
      this.#seen = new IntersectionObserver((entries) => {
        if (entries.some((entry) => entry.isIntersecting)) this.#prepare();
      });
      this.#seen.observe(this.props.host);
    }
  }

  override componentWillUnmount(): void {
    this.#stop();
    this.#seen?.disconnect();
  }

  #stop(): void {
    this.#controller?.abort();
    this.#controller = undefined;
    clearInterval(this.#timer);
  }

  #progress = (progress: Progress): void => {
    if (progress.phase === 'challenge' || progress.phase === 'pow') {
      const key = `${progress.phase}${progress.round}`;
      if (key !== this.#gate) {
        this.#gate = key;
        this.#emit(
          'gate',
          progress.phase === 'pow'
            ? { gate: 'pow', round: progress.round, difficulty: progress.difficulty }
            : { gate: 'challenge', round: progress.round, minAgeMs: progress.minAgeMs },
        );
      }
      const part =
        progress.phase === 'pow'
          ? progress.hashes / progress.expected
          : 1 - progress.remainingMs / Math.max(1, progress.minAgeMs);
      // Tens only: a live region announces every change.
      this.setState({
        status: this.#text('verifying', { percent: Math.min(90, Math.floor(part * 10) * 10) }),
      });
    } else if (progress.phase !== 'done') {
      this.setState({ status: this.#text('checking') });
    }
  };

  /**
   * On the first focus (or sight, with `prepare: 'visible'`): pages where nobody signs up never pay
   * for the gates. Again on a focus once the tokens near expiry, so a visitor back after nine
   * minutes gets fresh ones while typing; never on a timer, which would solve on idle pages.
   */
  #prepare = (): void => {
    this.#seen?.disconnect();
    // The sign-up's controller: `reset` stops the prepare too (the form then answers 428s itself).
    this.#controller ??= new AbortController();
    // No `#since` yet: NaN, not less.
    if (!(Date.now() - (this.#since as number) < STALE_MS)) {
      this.#since = Date.now();
      this.#prepared = prepareGates({
        ...this.props.config,
        signal: this.#controller.signal,
        // Shown only once the visitor has clicked and waits for them; silent while they type.
        onProgress: (progress) => this.state.busy && this.#progress(progress),
      });
    }
  };

  #submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    if (this.state.busy || this.state.wait) return;
    const { config } = this.props;
    this.#controller ??= new AbortController();
    const { signal } = this.#controller;
    this.#gate = '';
    this.setState({ busy: true, bad: false, fieldError: '', status: this.#text('checking') });
    try {
      const signup = await subscribe({
        baseUrl: config.baseUrl,
        waitlistId: config.waitlistId,
        email: this.#input.current?.value ?? '',
        referralCode: this.#referral,
        signal,
        onProgress: this.#progress,
        fetch: config.fetch,
        workers: config.workers,
        // A next try (say after a typo) may find them spent: then it answers the 428s itself.
        prepared: this.#prepared,
      });
      if (signal.aborted) return;
      const link = signup.referral_code
        ? shareLink(location.href, config.refParam, signup.referral_code)
        : '';
      this.setState({
        busy: false,
        signup,
        link,
        status: this.#text(signup.confirmEmail ? 'confirm' : 'success'),
      });
      this.#emit('success', {
        confirmEmail: signup.confirmEmail,
        referralCode: signup.referral_code,
        shareUrl: link,
        statusUrl: signup.status_url,
      });
    } catch (error) {
      if (signal.aborted) return;
      this.#fail(error);
    }
  };

  #fail(error: unknown): void {
    const known = error instanceof WaitlistError;
    this.#emit(
      'error',
      known
        ? { code: error.code, status: error.status, retryAfter: error.retryAfter, message: error.message }
        : { code: 'unexpected', status: 0, message: String(error) },
    );
    // The page's developer needs these; a 404's message says exactly what to fix.
    if (!known || error.code === 'not_found' || error.code === 'unexpected_response') {
      console.error(known ? `Waitlist widget: ${error.message}` : error);
    }
    const key = known ? MESSAGES[error.name] : undefined;
    if (known && error.status === 400) {
      this.setState({ busy: false, status: '', fieldError: this.#text(key ?? 'invalidRequest') });
      this.#input.current?.focus();
    } else if (known && error.retryAfter) {
      this.#countdown(error.retryAfter);
    } else {
      this.setState({ busy: false, bad: true, status: this.#text(key ?? 'error') });
    }
  }

  #countdown(seconds: number): void {
    const show = (wait: number) =>
      this.setState({
        busy: false,
        bad: true,
        wait,
        status: wait ? this.#text('rateLimited', { seconds: wait }) : '',
      });
    show(seconds);
    clearInterval(this.#timer);
    this.#timer = setInterval(() => {
      const wait = this.state.wait - 1;
      if (wait <= 0) clearInterval(this.#timer);
      show(Math.max(0, wait));
    }, 1000);
  }

  #copy = (link: string): void => {
    const select = () => this.#find<HTMLInputElement>('#s')?.select();
    (navigator.clipboard?.writeText(link) ?? Promise.reject()).then(
      () => this.setState({ copied: true }),
      select,
    );
  };

  override componentDidUpdate(_: FormProps, previous: FormState): void {
    // The submit button disappears with the form: keyboard focus moves to what replaced it.
    if (this.state.signup && !previous.signup) this.#find('#s,[tabindex]')?.focus();
  }

  #find<T extends HTMLElement>(selector: string): T | null | undefined {
    return this.#root.current?.querySelector<T>(selector);
  }

  override render(
    { config }: FormProps,
    { busy, signup, link, status, bad, fieldError, wait, copied }: FormState,
  ) {
    const t = config.locale;
    const statusUrl = signup && safeLink(signup.status_url);
    return (
      <div class={`w ${config.theme}`} ref={this.#root}>
        {signup ? (
          <div part="share">
            {link && (
              <>
                <label for="s" part="label">
                  {t.share}
                </label>
                <div class="row">
                  <input id="s" part="input" readOnly value={link} />
                  <button type="button" part="button" onClick={() => this.#copy(link)}>
                    {copied ? t.copied : t.copy}
                  </button>
                </div>
              </>
            )}
            {statusUrl && (
              <p>
                <a href={statusUrl} target="_blank" rel="noopener" part="link">
                  {t.status}
                </a>
              </p>
            )}
          </div>
        ) : (
          <form part="form" noValidate onSubmit={this.#submit} aria-busy={busy}>
            <label for="e" part="label">
              {t.label}
            </label>
            <div class="row">
              <input
                id="e"
                part="input"
                ref={this.#input}
                onFocus={this.#prepare}
                type="email"
                name="email"
                autocomplete="email"
                required
                maxLength={254}
                placeholder={t.placeholder}
                aria-invalid={fieldError ? 'true' : undefined}
                aria-describedby={fieldError ? 'f' : undefined}
              />
              <button type="submit" part="button" disabled={busy || wait > 0}>
                {t.button}
              </button>
            </div>
            <p id="f" part="error" class="bad">
              {fieldError}
            </p>
          </form>
        )}
        <p
          part="status"
          role="status"
          aria-live="polite"
          class={bad ? 'bad' : signup ? 'good' : undefined}
          tabIndex={signup && !link ? -1 : undefined}
        >
          {status}
        </p>
      </div>
    );
  }
}
