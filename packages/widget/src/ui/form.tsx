/**
 * The sign-up form. One class component, drawn by the widget's own renderer (render.ts). It
 * renders into the widget's shadow root and reports to the page through DOM events on the host
 * element.
 */
import { checkFieldValues, type FieldDefinition, type Language } from '@waitlistkit/protocol';
import { STALE_MS } from '../core/decide.js';
import { InvalidRequestError, WaitlistError } from '../core/errors.js';
import { fetchFormDescription } from '../core/form-description.js';
import {
  type PreparedGates,
  type Progress,
  plausibleAddress,
  prepareGates,
  subscribe,
} from '../core/subscribe.js';
import { countView } from '../core/view.js';
import { direction } from './language.js';
import { en, format, type Locale, type LocaleKey } from './locale.js';
import type { WidgetConfig } from './options.js';
import {
  answerText,
  atField,
  blocked,
  busy,
  failureText,
  fieldOf,
  IDLE,
  type Phase,
  SUBMITTING,
} from './phase.js';
import { answersIn, question } from './question.js';
import { readReferral, safeLink, shareLink } from './referral.js';
import { Component, createRef, Fragment, h } from './render.js';
import { pageSource } from './source.js';

export interface FormProps {
  config: WidgetConfig;
  /** Receives the `waitlist:*` events. */
  host: HTMLElement;
  /** Filled with the form's reset. */
  controls: { reset?: () => void };
  /** The language chosen for the form (docs/languages.md#the-widget). */
  lang: Language;
  /** Its texts on their way; none for English, or when the page gave every text. */
  texts?: Promise<Partial<Locale> | undefined> | undefined;
  /** Its texts, already here (then no `texts`). */
  strings?: Partial<Locale> | undefined;
}

/** `phase` is replaced whole on every move: `setState` merges, which would mix two phases' members. */
interface FormState {
  phase: Phase;
  /** The waitlist's questions, once their description has arrived. */
  fields?: FieldDefinition[];
  /** The language the form is shown in: English until the chosen one's texts arrive. */
  shown: Language;
  /** The shown language's texts (the page's own win over them). */
  strings?: Partial<Locale>;
}

export class Form extends Component<FormProps, FormState> {
  override state: FormState = {
    phase: IDLE,
    shown: this.props.texts ? 'en' : this.props.lang,
    strings: this.props.strings,
  };
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
  #source = this.props.config.attribution ? pageSource(location.href, document.referrer) : undefined;
  /** The fields to answer: `[]` until their description arrives, and for good when it fails. */
  #described: Promise<FieldDefinition[]> = Promise.resolve([]);
  /** Aborts what outlives a sign-up (the description) when the form goes. */
  #life = new AbortController();

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
    const { strings, shown } = this.state;
    return format(this.props.config.locale[key] ?? strings?.[key] ?? en[key], values, shown);
  }

  #show(phase: Phase): void {
    this.setState({ phase });
  }

  /** Abort the sign-up in flight (its workers stop), stop timers, show an empty form. */
  reset = (): void => {
    this.#stop();
    this.#prepared = this.#since = undefined;
    this.#gate = '';
    this.#show(IDLE);
    this.#find<HTMLFormElement>('form')?.reset();
  };

  override componentDidMount(): void {
    const { config } = this.props;
    this.props.controls.reset = this.reset;
    countView(config, this.#source);
    // A file that cannot be used leaves the form in English (the file's loader says why).
    this.props.texts?.then((strings) => strings && this.setState({ strings, shown: this.props.lang }));
    // Alongside the first render: the address field is there at once, the questions join it.
    this.#described = fetchFormDescription({ ...config, signal: this.#life.signal }).then(
      (fields) => {
        this.setState({ fields });
        return fields;
      },
      (error) => {
        // Not an error of the page: the form still signs up, with the address alone.
        if (!this.#life.signal.aborted)
          console.warn(`Waitlist widget: the form's questions could not be loaded (${error}).`);
        return [];
      },
    );
    if (this.props.config.prepare === 'visible') {
      this.#seen = new IntersectionObserver((entries) => {
        if (entries.some((entry) => entry.isIntersecting)) this.#prepare();
      });
      this.#seen.observe(this.props.host);
    }
  }

  override componentWillUnmount(): void {
    this.#life.abort();
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
      this.#show({ is: 'verifying', percent: Math.min(90, Math.floor(part * 10) * 10) });
    } else if (progress.phase !== 'done') {
      this.#show(SUBMITTING);
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
        onProgress: (progress) => busy(this.state.phase) && this.#progress(progress),
      });
    }
  };

  #submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    if (blocked(this.state.phase)) return;
    const { config } = this.props;
    this.#controller ??= new AbortController();
    const { signal } = this.#controller;
    this.#gate = '';
    this.#show(SUBMITTING);
    try {
      const email = plausibleAddress(this.#input.current?.value);
      // Only a visitor faster than the description waits for it here.
      const fields = await this.#described;
      // The one check of the answers, the service's own (docs/subscribers.md#fields): its
      // sentence names the field, as the service's 400 would, and is shown there the same way.
      const answers = checkFieldValues(fields, answersIn(this.#root.current, fields));
      if (!answers.ok) throw new InvalidRequestError(answers.problem.message, 400, 'invalid_request');
      const signup = await subscribe({
        baseUrl: config.baseUrl,
        waitlistId: config.waitlistId,
        email,
        fields: fields.length ? answers.value : undefined,
        source: this.#source,
        referralCode: this.#referral,
        // The language the visitor read the form in: their mails and pages speak it too.
        lang: this.state.shown,
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
      this.#show({ is: 'done', signup, link });
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
    let seconds = known ? error.retryAfter : undefined;
    this.#show({ is: 'failed', error, seconds });
    if (atField(error)) {
      const key = fieldOf(error as WaitlistError, this.state.fields);
      (key ? this.#find(`#k-${key}`) : this.#input.current)?.focus();
    }
    if (seconds) {
      // Counted down to 0, the form is as new.
      clearInterval(this.#timer);
      this.#timer = setInterval(() => {
        if (!--(seconds as number)) clearInterval(this.#timer);
        this.#show(seconds ? { is: 'failed', error, seconds } : IDLE);
      }, 1000);
    }
  }

  #copy = (done: Phase & { is: 'done' }): void => {
    const select = () => this.#find<HTMLInputElement>('#s')?.select();
    (navigator.clipboard?.writeText(done.link) ?? Promise.reject()).then(
      () => this.#show({ ...done, copied: true }),
      select,
    );
  };

  override componentDidUpdate(_: FormProps, previous: FormState): void {
    // The submit button disappears with the form: keyboard focus moves to what replaced it.
    if (this.state.phase.is === 'done' && previous.phase.is !== 'done') this.#find('#s,[tabindex]')?.focus();
  }

  #find<T extends HTMLElement>(selector: string): T | null | undefined {
    return this.#root.current?.querySelector<T>(selector);
  }

  override render({ config }: FormProps, { phase, fields = [], shown }: FormState) {
    const t = (key: LocaleKey) => this.#text(key);
    const done = phase.is === 'done' && phase;
    const failed = phase.is === 'failed' && phase;
    const refused = failed && atField(failed.error) && (failed.error as WaitlistError);
    // The field the refusal is shown at: a question's key, or '' for the address.
    const at = refused ? fieldOf(refused, fields) : undefined;
    const fieldError = refused && at === '' ? t(failureText(refused)) : '';
    const submit = (
      <button type="submit" part="button" disabled={blocked(phase)}>
        {t('button')}
      </button>
    );
    // The live region's text.
    const status = done
      ? t(done.signup.confirmEmail ? 'confirm' : 'success')
      : failed
        ? refused
          ? ''
          : this.#text(failureText(failed.error), { seconds: failed.seconds ?? 0 })
        : phase.is === 'verifying'
          ? this.#text('verifying', { percent: phase.percent })
          : phase.is === 'submitting'
            ? t('checking')
            : '';
    const statusUrl = done && safeLink(done.signup.status_url);
    return (
      <div class={`w ${config.theme}`} lang={shown} dir={direction(shown)} ref={this.#root}>
        {done ? (
          <div part="share">
            {done.link && (
              <>
                <label for="s" part="label">
                  {t('share')}
                </label>
                <div class="row">
                  <input id="s" part="input" readOnly value={done.link} />
                  <button type="button" part="button" onClick={() => this.#copy(done)}>
                    {t(done.copied ? 'copied' : 'copy')}
                  </button>
                </div>
              </>
            )}
            {statusUrl && (
              <p>
                <a href={statusUrl} target="_blank" rel="noopener" part="link">
                  {t('status')}
                </a>
              </p>
            )}
          </div>
        ) : (
          <form part="form" noValidate onSubmit={this.#submit} aria-busy={busy(phase)}>
            <label for="e" part="label">
              {t('label')}
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
                placeholder={t('placeholder')}
                aria-invalid={fieldError ? 'true' : undefined}
                aria-describedby={fieldError ? 'f' : undefined}
              />
              {!fields.length && submit}
            </div>
            <p id="f" part="error" class="bad">
              {fieldError}
            </p>
            {fields.map((field) =>
              question(field, refused && at === field.key ? t(answerText(refused)) : ''),
            )}
            {fields.length > 0 && submit}
          </form>
        )}
        <p
          part="status"
          role="status"
          aria-live="polite"
          class={done ? 'good' : failed && !refused ? 'bad' : undefined}
          tabIndex={done && !done.link ? -1 : undefined}
        >
          {status}
        </p>
      </div>
    );
  }
}
