/**
 * A waitlist's messages in the dashboard (docs/messages.md#the-editor): the three of them, and the
 * editor of one: subject, body and switch, the merge tags beside it with what each becomes, and
 * the sample subscriber's preview, which the page's script keeps up to date as the operator types.
 */
import { LANGUAGES, type Language, RTL_LANGUAGES } from '@waitlistkit/protocol';
import type { ShownMessage } from '../../app/messages.js';
import type { TextFrom } from '../../domain/message-choice.js';
import { MERGE_TAGS, type TagValues } from '../../domain/message-template.js';
import { MESSAGE_KINDS, type MessageKind, type RenderedMessage } from '../../domain/messages.js';
import type { Waitlist } from '../../domain/records.js';
import type { Page } from '../../web/page.js';
import type { MessageForm } from '../forms.js';
import { Csrf, FieldError, Notice, Table, when } from './parts.js';
import { dashboardPage, type SignedIn } from './shell.js';

/** The messages' page, or one message's editor on a version ('' the waitlist's own). */
export function messagesPath(
  waitlistId: string,
  kind?: MessageKind,
  lang: Language | '' = '',
  query: Record<string, string> = {},
): string {
  const search = new URLSearchParams({ ...(lang ? { lang } : {}), ...query }).toString();
  return `/dashboard/waitlists/${waitlistId}/messages${kind ? `/${kind}` : ''}${search ? `?${search}` : ''}`;
}

/** A language as the (English) dashboard names it: "German (de)". */
const NAMES = new Intl.DisplayNames(['en'], { type: 'language' });
export const languageName = (tag: Language) => `${NAMES.of(tag) ?? tag} (${tag})`;

const TITLE: Record<MessageKind, string> = {
  welcome: 'Welcome',
  referral: 'Referral',
  admitted: 'Admitted',
};

const SENT: Record<MessageKind, string> = {
  welcome: 'Sent at a fresh sign-up; on a waitlist that confirms addresses, once the address is confirmed.',
  referral:
    'Sent to a referrer after a referral is credited, at most one an hour: credits while one waits are told in it.',
  admitted: 'Sent when a subscriber is let in, whichever way. {{access_url}} is where it sends them.',
};

const MEANS: Record<(typeof MERGE_TAGS)[number], string> = {
  waitlist_name: "the waitlist's name",
  email: "the subscriber's address",
  position: 'their place in the line',
  people_ahead: 'how many are ahead of them',
  referral_count: 'how many they referred',
  referral_link: 'their referral link',
  status_url: 'their status page',
  access_url: "the waitlist's Access URL setting",
};

/** Whether a message is sent, as the list and the editor say it: one switch for all its versions. */
const stateOf = (m: ShownMessage) => (m.versions?.length ? (m.enabled ? 'On' : 'Off') : 'Not written');

/** The saved versions of a message, as the list says them. */
function versionsOf(m: ShownMessage, waitlist: Waitlist): string {
  const own = `own (${waitlist.settings.default_lang})`;
  return (m.versions ?? []).map((tag) => (tag === '' ? own : tag)).join(', ') || '—';
}

export function messagesPage(
  who: SignedIn,
  waitlist: Waitlist,
  messages: ShownMessage[],
  mailWaits: boolean,
): Page {
  return dashboardPage(
    `Messages of ${waitlist.name}`,
    who,
    'waitlists',
    <>
      <p class="actions">
        <a href={`/dashboard/waitlists/${waitlist.id}`}>Back to {waitlist.name}</a>
      </p>
      {mailWaits ? <NoSmtp /> : null}
      <section class="card">
        <Table
          caption="Messages sent to subscribers, each off until switched on"
          columns={['Message', 'State', 'Subject', 'Versions', 'Saved']}
          rows={messages.map((m) => (
            <tr key={m.kind}>
              <td>
                <a href={messagesPath(waitlist.id, m.kind)}>{TITLE[m.kind]}</a>
              </td>
              <td>{stateOf(m)}</td>
              <td>{m.subject || '—'}</td>
              <td>{versionsOf(m, waitlist)}</td>
              <td>{m.updated_at ? when(m.updated_at) : 'never'}</td>
            </tr>
          ))}
        />
      </section>
    </>,
  );
}

function NoSmtp() {
  return (
    <p class="warning">
      This server has no WAITLIST_SMTP_URL: messages that are on wait unsent until a server with SMTP runs,
      and no test can be sent. Set WAITLIST_SMTP_URL and WAITLIST_MAIL_FROM.
    </p>
  );
}

export interface EditorProps {
  waitlist: Waitlist;
  kind: MessageKind;
  /** The version edited: '' the waitlist's own, else a language's (docs/messages.md#languages). */
  lang: Language | '';
  /** The message as saved. */
  saved: ShownMessage;
  /** What the fields hold: the saved message, or what was typed. */
  form: MessageForm;
  /** The preview of what the fields hold; none while they cannot be rendered. */
  preview: RenderedMessage | null;
  values: TagValues;
  errors?: { subject?: string; body?: string };
  /** A refusal about the form as a whole (a throttle, no SMTP). */
  formError?: string;
  notice?: string;
  mailWaits: boolean;
}

export function messageEditorPage(who: SignedIn, p: EditorProps): Page {
  const { waitlist, kind, form, lang } = p;
  const admin = who.operator.role === 'admin';
  const errors = p.errors ?? {};
  const invalid = errors.subject !== undefined || errors.body !== undefined;
  const action = messagesPath(waitlist.id, kind);
  // The fields speak the version's language, so a right-to-left one is typed right to left.
  const writing = lang
    ? { lang, dir: RTL_LANGUAGES.includes(lang) ? ('rtl' as const) : ('ltr' as const) }
    : {};
  return dashboardPage(
    `${TITLE[kind]} message`,
    who,
    'waitlists',
    <>
      <nav class="tabs" aria-label="Messages">
        <ul>
          {MESSAGE_KINDS.map((k) => (
            <li key={k}>
              <a href={messagesPath(waitlist.id, k, lang)} aria-current={k === kind ? 'page' : undefined}>
                {TITLE[k]}
              </a>
            </li>
          ))}
          <li>
            <a href={`/dashboard/waitlists/${waitlist.id}`}>Back to {waitlist.name}</a>
          </li>
        </ul>
      </nav>
      {p.mailWaits ? <NoSmtp /> : null}
      <Versions waitlist={waitlist} kind={kind} lang={lang} saved={p.saved} />
      <div class="editor">
        <section class="card" aria-labelledby="edit-heading">
          <h2 id="edit-heading">
            Edit {lang ? `the version in ${languageName(lang)}` : 'the waitlist’s own version'}
          </h2>
          <p class="muted">
            {SENT[kind]} Now: {stateOf(p.saved)}
            {p.saved.updated_at ? <>, saved {when(p.saved.updated_at)}</> : null}.
          </p>
          {admin ? null : (
            <p class="notice">Only admins can save messages; you can preview one and send yourself a test.</p>
          )}
          <Notice text={p.notice} />
          {p.formError ? (
            <p class="error" role="alert">
              {p.formError}
            </p>
          ) : null}
          {invalid ? (
            <p class="error" role="alert">
              The message needs fixing; nothing was saved or sent.
            </p>
          ) : null}
          <form method="post" action={action} id="message-form" data-preview={`${action}/preview`}>
            <Csrf token={who.csrf} />
            <input type="hidden" name="lang" value={lang} />
            <div class="field">
              <label for="subject">Subject</label>
              <input
                id="subject"
                name="subject"
                value={form.subject}
                {...writing}
                aria-invalid={errors.subject ? 'true' : undefined}
                aria-describedby={errors.subject ? 'subject-help subject-error' : 'subject-help'}
              />
              <p id="subject-help" class="help">
                One line of at most 150 characters; merge tags allowed.
              </p>
              <FieldError id="subject-error" message={errors.subject} />
            </div>
            <div class="field">
              <label for="body">Body</label>
              <textarea
                id="body"
                name="body"
                rows={12}
                {...writing}
                aria-invalid={errors.body ? 'true' : undefined}
                aria-describedby={errors.body ? 'body-help body-error' : 'body-help'}
              >
                {form.body}
              </textarea>
              <p id="body-help" class="help">
                Plain text of at most 5,000 characters: blank lines make paragraphs, addresses become links.
              </p>
              <FieldError id="body-error" message={errors.body} />
            </div>
            <div class="check">
              <input id="enabled" name="enabled" type="checkbox" checked={form.enabled} />
              <label for="enabled">Send this message</label>
            </div>
            <p class="actions">
              {admin ? (
                <button type="submit" name="do" value="save">
                  Save message
                </button>
              ) : null}
              <button type="submit" name="do" value="preview" class="secondary">
                Preview
              </button>
              <button type="submit" name="do" value="test" class="secondary">
                Send me a test
              </button>
            </p>
            <p class="help">
              A test goes to {who.operator.email} with the text as it stands here, saved or not; it saves
              nothing.
            </p>
          </form>
        </section>
        <aside class="card" aria-labelledby="tags-heading">
          <h2 id="tags-heading">Merge tags</h2>
          <p class="muted">Each becomes the subscriber's value; here, the sample subscriber's.</p>
          <ul class="tags">
            {[...p.values.keys()].map((tag) => (
              <li key={tag}>
                <code>{`{{${tag}}}`}</code> {meaning(waitlist, tag)}:{' '}
                <samp>{p.values.get(tag) || '(empty)'}</samp>
              </li>
            ))}
          </ul>
        </aside>
      </div>
      <Preview preview={p.preview} />
    </>,
    // The script asks the preview endpoint, on our own origin and nowhere else.
    { css: CSS, script: PREVIEW_SCRIPT, csp: "; connect-src 'self'" },
  );
}

/** What readers of the version get now, in words (domain/message-choice.ts). */
function fromWords(from: TextFrom | undefined, lang: Language | '', waitlist: Waitlist): string {
  const name = lang ? languageName(lang) : '';
  switch (from) {
    case 'language':
      return `Readers in ${name} get this waitlist's version in ${name}, below.`;
    case 'waitlist':
      return `Readers in ${name} get the waitlist's own version (its default language): saving here makes a version of their own.`;
    case 'default':
      return `Readers in ${name} get our default text in ${name}, below: saving makes it this waitlist's version in ${name}.`;
    default:
      return `Readers in ${languageName(waitlist.settings.default_lang)}, the waitlist's default language, and those who gave none get this version; readers in another language get their own version, else our default text in their language.`;
  }
}

/** Which version the editor is on, with a menu (a plain GET form: no script needed) to change it. */
function Versions(p: { waitlist: Waitlist; kind: MessageKind; lang: Language | ''; saved: ShownMessage }) {
  const { waitlist, kind, lang, saved } = p;
  const has = new Set(saved.versions ?? []);
  const own = waitlist.settings.default_lang;
  return (
    <section class="card" aria-labelledby="versions-heading">
      <h2 id="versions-heading">Language</h2>
      <p class="muted">{fromWords(saved.from, lang, waitlist)}</p>
      <form method="get" action={messagesPath(waitlist.id, kind)} class="inline">
        <label for="version-lang">Version</label>
        <select id="version-lang" name="lang">
          <option value="" selected={lang === ''}>
            The waitlist's own: {languageName(own)}
            {has.has('') ? ', saved' : ''}
          </option>
          {LANGUAGES.filter((tag) => tag !== own).map((tag) => (
            <option key={tag} value={tag} selected={tag === lang}>
              {languageName(tag)}
              {has.has(tag) ? ', saved' : ''}
            </option>
          ))}
        </select>
        <button type="submit" class="secondary">
          Show
        </button>
      </form>
    </section>
  );
}

function meaning(waitlist: Waitlist, tag: string): string {
  const known = MERGE_TAGS.find((t) => t === tag);
  if (known) return MEANS[known];
  const key = tag.slice('fields.'.length);
  const label = waitlist.settings.fields.find((f) => f.key === key)?.label ?? key;
  return `their answer to “${label}”`;
}

/** The HTML part in a sandboxed frame: the template's markup never runs in the dashboard's origin. */
function Preview({ preview }: { preview: RenderedMessage | null }) {
  return (
    <section class="card" aria-labelledby="preview-heading">
      <h2 id="preview-heading">Preview for a sample subscriber</h2>
      <p id="preview-status" class="muted" role="status">
        {preview ? '' : 'No preview: the subject and the body must both be filled in and valid.'}
      </p>
      <dl class="facts">
        <dt>Subject</dt>
        <dd id="preview-subject" dir="auto">
          {preview?.subject ?? ''}
        </dd>
      </dl>
      <h3>Text part</h3>
      <pre id="preview-text" dir="auto">
        {preview?.text ?? ''}
      </pre>
      <h3>HTML part</h3>
      <iframe id="preview-html" title="HTML part of the preview" sandbox="" srcdoc={preview?.html ?? ''} />
    </section>
  );
}

const CSS = `
/* One column that never grows past the page on a phone: an operator's long address wraps. */
.editor { display: grid; grid-template-columns: minmax(0, 1fr); gap: 1.5rem; margin-bottom: 1.5rem; }
.editor p { overflow-wrap: anywhere; }
@media (min-width: 50rem) { .editor { grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); } }
.editor section.card + section.card { margin-top: 0; }
ul.tags { list-style: none; margin: 0; padding: 0; } ul.tags li { margin: 0 0 0.5rem; overflow-wrap: anywhere; }
h3 { font-size: 1rem; margin: 1rem 0 0.5rem; }
#preview-html { display: block; width: 100%; min-height: 14rem; border: 1px solid var(--border); border-radius: 8px; background: #fff; }
`;

/**
 * The live preview: the fields, posted as the form would be (its CSRF token included) to the
 * preview endpoint, which saves nothing, 400 ms after the last keystroke; an answer to an older
 * request than the latest is ignored. Without this script the Preview button does the same.
 */
const PREVIEW_SCRIPT = `
(function () {
  var form = document.getElementById('message-form');
  if (!form || !window.fetch || !window.URLSearchParams) return;
  var status = document.getElementById('preview-status');
  var timer;
  var latest = 0;
  function show(preview) {
    document.getElementById('preview-subject').textContent = preview.subject;
    document.getElementById('preview-text').textContent = preview.text;
    document.getElementById('preview-html').srcdoc = preview.html;
  }
  function update() {
    var mine = ++latest;
    fetch(form.getAttribute('data-preview'), {
      method: 'POST',
      headers: { Accept: 'application/json' },
      body: new URLSearchParams(new FormData(form)),
      credentials: 'same-origin'
    }).then(function (res) { return res.json(); }).then(function (answer) {
      if (mine !== latest) return;
      if (answer.preview) { show(answer.preview); status.textContent = ''; }
      else status.textContent = 'Not previewed: ' + answer.error.message;
    }).catch(function () {
      if (mine === latest) status.textContent = 'The preview could not be updated; use the Preview button.';
    });
  }
  form.addEventListener('input', function () {
    clearTimeout(timer);
    timer = setTimeout(update, 400);
  });
})();
`;
