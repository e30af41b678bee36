/** Reading the dashboard's forms: strings in, typed values or per-field messages out. No I/O. */

import { randomBytes } from 'node:crypto';
import { isLanguage, type Language } from '@waitlistkit/protocol';
import { parseList, SETTING_FIELDS } from '../domain/setting-fields.js';
import type { SettingsPatch, WaitlistSettings } from '../domain/settings.js';

export type FieldErrors = Record<string, string>;
export type FormValues = Record<string, string>;

/** A form field's text; a field sent twice (or as anything but text) is treated as absent. */
export function field(body: unknown, name: string): string | undefined {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : undefined;
}

/** The settings form as the page shows it: lists one item per line. */
export function settingsValues(settings: WaitlistSettings): FormValues {
  const values: FormValues = {};
  for (const f of SETTING_FIELDS) {
    const value = settings[f.key];
    values[f.key] = Array.isArray(value)
      ? value.join('\n')
      : value === true
        ? 'on'
        : value === false
          ? ''
          : String(value);
  }
  return values;
}

/**
 * Parses every settings field of a submitted form. A checkbox that is absent is off (the form
 * always shows them all); numbers must be whole and in range; lists take commas or line breaks.
 */
export function parseSettingsForm(body: unknown): {
  patch: SettingsPatch;
  errors: FieldErrors;
  values: FormValues;
} {
  const patch: Record<string, unknown> = {};
  const errors: FieldErrors = {};
  const values: FormValues = {};
  for (const f of SETTING_FIELDS) {
    const raw = field(body, f.key) ?? '';
    values[f.key] = raw;
    switch (f.kind) {
      case 'switch':
        patch[f.key] = raw === 'on';
        break;
      case 'int': {
        const text = raw.trim();
        const n = /^\d{1,9}$/.test(text) ? Number(text) : Number.NaN;
        if (Number.isNaN(n) || n < f.min || n > f.max)
          errors[f.key] = `Enter a whole number from ${f.min} to ${f.max}.`;
        else patch[f.key] = n;
        break;
      }
      case 'choice':
        // A form without the choice (an older page) leaves it as it is.
        if (raw === '') break;
        if (f.values.includes(raw)) patch[f.key] = raw;
        else errors[f.key] = `Choose one of ${f.values.join(', ')}.`;
        break;
      case 'text':
        // A form without the field leaves it as it is.
        if (field(body, f.key) === undefined) break;
        try {
          patch[f.key] = f.parse(raw);
        } catch (error) {
          errors[f.key] = (error as Error).message;
        }
        break;
      case 'list':
        try {
          patch[f.key] = parseList(f, raw);
        } catch (error) {
          errors[f.key] = (error as Error).message;
        }
        break;
    }
  }
  return { patch: patch as SettingsPatch, errors, values };
}

/** A field sent once per checked box (`events=a&events=b`): its texts, none when absent. */
export function fieldList(body: unknown, name: string): string[] {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** The webhook endpoint form as it was sent, to show again as typed when it is refused. */
export interface WebhookForm {
  url: string;
  events: string[];
  /** A waitlist id, or '' for all of them. */
  waitlist: string;
}

export function webhookForm(body: unknown): WebhookForm {
  return {
    url: field(body, 'url') ?? '',
    events: fieldList(body, 'events'),
    waitlist: field(body, 'waitlist') ?? '',
  };
}

export function parseName(body: unknown, what: string): { name?: string; error?: string } {
  const name = (field(body, 'name') ?? '').trim();
  if (name === '' || name.length > 200) return { error: `Give the ${what} a name of 1 to 200 characters.` };
  return { name };
}

/**
 * The admission form's count as a number, or NaN when it is not digits: the app decides the
 * range, and the page says it in its own words.
 */
export function parseCount(body: unknown): { raw: string; count: number } {
  const raw = field(body, 'count') ?? '';
  const text = raw.trim();
  return { raw, count: /^\d{1,9}$/.test(text) ? Number(text) : Number.NaN };
}

/** A one-time token for a form whose second post must do nothing (`Operators.admit`). */
export function newFormToken(): string {
  return randomBytes(16).toString('base64url');
}

/**
 * Which version of a message the editor is on (docs/messages.md#languages): '' for the waitlist's
 * own (nothing given), a supported tag exactly, or undefined for anything else, refused.
 */
export function versionLang(raw: unknown): Language | '' | undefined {
  if (raw === undefined || raw === '') return '';
  return isLanguage(raw) ? raw : undefined;
}

/** The message editor's form as typed (docs/messages.md#the-editor). */
export interface MessageForm {
  subject: string;
  body: string;
  enabled: boolean;
}

/**
 * The editor's fields; the body's line breaks as LF, though browsers send a textarea's as CRLF,
 * so a line counts one character as it does from the command line. The subject is left as sent:
 * a line break in it is refused, not mended.
 */
export function messageForm(body: unknown): MessageForm {
  return {
    subject: field(body, 'subject') ?? '',
    body: (field(body, 'body') ?? '').replace(/\r\n?/g, '\n'),
    enabled: field(body, 'enabled') === 'on',
  };
}
