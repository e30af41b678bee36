/**
 * A waitlist's messages (docs/messages.md#the-editor): the list, and the editor of one, whose form
 * saves (admins), previews (a page with the typed text and its preview, nothing saved) or sends a
 * test to the operator; and the preview endpoint the editor's script asks as the operator types.
 * The rules are the app's: a refused template is shown at the field it names, as typed.
 */
import { LANGUAGES, type Language } from '@waitlistkit/protocol';
import express, { type Request, type Response } from 'express';
import { sampleValues } from '../../app/messages.js';
import type { OperatorRefusal } from '../../app/refusal.js';
import type { Container } from '../../container.js';
import { isMessageKind, MESSAGE_KINDS, type MessageKind } from '../../domain/messages.js';
import type { Waitlist } from '../../domain/records.js';
import { field, type MessageForm, messageForm, versionLang } from '../forms.js';
import { problemPage } from '../pages/errors.js';
import { type EditorProps, messageEditorPage, messagesPage, messagesPath } from '../pages/messages.js';
import type { SignedIn } from '../pages/shell.js';
import { ownWaitlist, refused } from '../refusals.js';
import { sendPage } from '../respond.js';
import type { Pages } from '../signed-in.js';

/**
 * The editor's forms are read with more room than the dashboard's 32 kB: a body of 5,000
 * characters may take 60 kB encoded, and one pasted far past the limit is still refused at its
 * field with what was typed kept. Beyond this, the dashboard's page for a form too large.
 */
export const messageForms = express.urlencoded({ extended: false, limit: '2mb', parameterLimit: 20 });
export const MESSAGE_FORM_PATHS = '/waitlists/:id/messages/:kind';

/** How the editor answers a refusal that is not about a field. */
const STATUS: Partial<Record<OperatorRefusal['code'], number>> = {
  rate_limit_exceeded: 429,
  conflict: 409,
};

export function messageRoutes(app: Container, pages: Pages): void {
  const { messages, messageTests } = app;
  const mailWaits = !app.config.sendsMail;

  /** The version a request names (`lang`), or undefined once the 400 page is sent. */
  function langOf(raw: unknown, res: Response, who: SignedIn): Language | '' | undefined {
    const lang = versionLang(raw);
    if (lang !== undefined) return lang;
    const message = `A message's language is one of the ${LANGUAGES.length} tags of docs/languages.md, such as de or pt; nothing was saved.`;
    sendPage(res, problemPage(who, 'No such language', message), 400);
    return undefined;
  }

  /** The kind the path names, or undefined once the 404 page is sent. */
  function kindOf(req: Request, res: Response, who: SignedIn): MessageKind | undefined {
    const kind = req.params.kind as string;
    if (isMessageKind(kind)) return kind;
    const message = `There is no such message: the messages are ${MESSAGE_KINDS.join(', ')}.`;
    sendPage(res, problemPage(who, 'Not found', message), 404);
    return undefined;
  }

  async function editor(
    res: Response,
    who: SignedIn,
    waitlist: Waitlist,
    kind: MessageKind,
    lang: Language | '',
    shown: Partial<EditorProps> & { form?: MessageForm },
    status = 200,
  ) {
    const saved = await messages.show(who, waitlist.id, kind, lang || undefined);
    if (!saved.ok) return refused(res, who, saved.refusal);
    const { subject, body, enabled, preview } = saved.value;
    const page = messageEditorPage(who, {
      waitlist,
      kind,
      lang,
      saved: saved.value,
      form: { subject, body, enabled },
      preview,
      values: sampleValues(waitlist, app.config.appUrl),
      mailWaits,
      ...shown,
    });
    sendPage(res, page, status);
  }

  /** The editor again with what was typed, the refusal at its field or above the form. */
  function refusedAt(
    res: Response,
    who: SignedIn,
    waitlist: Waitlist,
    kind: MessageKind,
    lang: Language | '',
    form: MessageForm,
    refusal: OperatorRefusal,
  ) {
    const shown = { form, preview: null };
    if (refusal.code === 'invalid_request' && (refusal.field === 'subject' || refusal.field === 'body')) {
      const errors = { [refusal.field]: refusal.message };
      return editor(res, who, waitlist, kind, lang, { ...shown, errors }, 400);
    }
    const status = STATUS[refusal.code];
    if (status === undefined) return refused(res, who, refusal);
    if (refusal.retryAfter !== undefined) res.set('Retry-After', String(refusal.retryAfter));
    return editor(res, who, waitlist, kind, lang, { ...shown, formError: refusal.message }, status);
  }

  pages.get('/waitlists/:id/messages', async (req, res, who) => {
    const waitlist = await ownWaitlist(app, res, who, req.params.id as string);
    if (!waitlist) return;
    const shown = [];
    for (const kind of MESSAGE_KINDS) {
      const message = await messages.show(who, waitlist.id, kind);
      if (!message.ok) return refused(res, who, message.refusal);
      shown.push(message.value);
    }
    sendPage(res, messagesPage(who, waitlist, shown, mailWaits));
  });

  pages.get(MESSAGE_FORM_PATHS, async (req, res, who) => {
    const kind = kindOf(req, res, who);
    const waitlist = kind && (await ownWaitlist(app, res, who, req.params.id as string));
    const lang = waitlist && langOf(req.query.lang, res, who);
    if (!kind || !waitlist || lang === undefined) return;
    await editor(res, who, waitlist, kind, lang, {
      notice: req.query.saved === '1' ? 'Message saved.' : undefined,
    });
  });

  pages.post(MESSAGE_FORM_PATHS, async (req, res, who) => {
    const kind = kindOf(req, res, who);
    const waitlist = kind && (await ownWaitlist(app, res, who, req.params.id as string));
    const lang = waitlist && langOf(req.body?.lang, res, who);
    if (!kind || !waitlist || lang === undefined) return;
    const form = messageForm(req.body);
    const draft = { kind, subject: form.subject, body: form.body };
    const speaks = lang || undefined;
    switch (field(req.body, 'do')) {
      case 'preview': {
        const preview = await messages.preview(who, waitlist.id, draft, speaks);
        if (!preview.ok) return refusedAt(res, who, waitlist, kind, lang, form, preview.refusal);
        return editor(res, who, waitlist, kind, lang, { form, preview: preview.value });
      }
      case 'test': {
        const sent = await messageTests.send(who, waitlist.id, draft, speaks);
        if (!sent.ok) return refusedAt(res, who, waitlist, kind, lang, form, sent.refusal);
        const preview = await messages.preview(who, waitlist.id, draft, speaks);
        const notice = `A test of the message above is on its way to ${sent.value.to}. Nothing was saved.`;
        const shown = { form, preview: preview.ok ? preview.value : null, notice };
        return editor(res, who, waitlist, kind, lang, shown);
      }
      default: {
        const change = { ...draft, enabled: form.enabled };
        const saved = await messages.set(who, waitlist.id, kind, change, lang);
        if (!saved.ok) return refusedAt(res, who, waitlist, kind, lang, form, saved.refusal);
        res.redirect(303, messagesPath(waitlist.id, kind, lang, { saved: '1' }));
      }
    }
  });

  /** The live preview: JSON, nothing saved; a refusal as the API words one, with the field it names. */
  pages.post(`${MESSAGE_FORM_PATHS}/preview`, async (req, res, who) => {
    const kind = req.params.kind as string;
    if (!isMessageKind(kind))
      return res.status(404).json({ error: { code: 'not_found', message: 'There is no such message.' } });
    const lang = versionLang(req.body?.lang);
    if (lang === undefined)
      return res.status(400).json({
        error: { code: 'invalid_request', message: 'There is no such language.', field: 'lang' },
      });
    const form = messageForm(req.body);
    const preview = await messages.preview(
      who,
      req.params.id as string,
      { kind, ...form },
      lang || undefined,
    );
    if (preview.ok) return res.json({ preview: preview.value });
    const { code, message, field: part } = preview.refusal;
    res.status(code === 'not_found' ? 404 : 400).json({ error: { code, message, field: part } });
  });
}
