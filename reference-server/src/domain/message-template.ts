/**
 * A message's template (docs/messages.md#merge-tags): text with `{{tag}}` merge tags from a fixed
 * list, checked when it is saved and filled when the mail is sent. Pure: the rules of what a
 * template may say, and of what the mail shows, are tested without a store or a mail server.
 *
 * Tags are looked up in arrays and maps, never as properties of an object, so `{{constructor}}`
 * and `{{__proto__}}` are unknown tags like any other word.
 */
import { escapeHtml } from './html.js';

/** The merge tags every message may use, besides `fields.<key>` of the waitlist's fields. */
export const MERGE_TAGS = [
  'waitlist_name',
  'email',
  'position',
  'people_ahead',
  'referral_count',
  'referral_link',
  'status_url',
  'access_url',
] as const;

export type MergeTag = (typeof MERGE_TAGS)[number] | `fields.${string}`;

/** A template read into its parts: literal text, and the tags between. */
export type TemplatePart = { text: string } | { tag: MergeTag };

export type Checked<T> = { ok: true; value: T } | { ok: false; reason: string };

const OPEN = '{{';
const CLOSE = '}}';

/** What a tag may look like inside its braces (spaces around it are allowed). */
const TAG_SHAPE = /^\s*([a-z_][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)?)\s*$/;

/** Shows a bit of the template in a reason, on one line and short. */
const excerpt = (text: string) => {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > 40 ? `${flat.slice(0, 40)}…` : flat;
};

/**
 * Reads a template: every `{{` closed by a `}}` before the next `{{`, no `}}` without its `{{`,
 * and each tag one of `MERGE_TAGS` or `fields.<key>` of a field the waitlist has. The reason
 * names the tag or the brace, and where it is.
 */
export function parseTemplate(template: string, fieldKeys: readonly string[]): Checked<TemplatePart[]> {
  const parts: TemplatePart[] = [];
  let at = 0;
  while (at < template.length) {
    const open = template.indexOf(OPEN, at);
    const close = template.indexOf(CLOSE, at);
    if (close !== -1 && (open === -1 || close < open))
      return {
        ok: false,
        reason: `a \`}}\` has no \`{{\` before it: “${excerpt(template.slice(at, close + 2))}”.`,
      };
    if (open === -1) {
      parts.push({ text: template.slice(at) });
      break;
    }
    if (open > at) parts.push({ text: template.slice(at, open) });
    const end = template.indexOf(CLOSE, open + OPEN.length);
    const next = template.indexOf(OPEN, open + OPEN.length);
    if (end === -1 || (next !== -1 && next < end))
      return {
        ok: false,
        reason: `a \`{{\` is not closed by \`}}\`: “${excerpt(template.slice(open, open + 40))}”.`,
      };
    const inside = template.slice(open + OPEN.length, end);
    const tag = knownTag(inside, fieldKeys);
    if (!tag.ok) return tag;
    parts.push({ tag: tag.value });
    at = end + CLOSE.length;
  }
  return { ok: true, value: parts };
}

function knownTag(inside: string, fieldKeys: readonly string[]): Checked<MergeTag> {
  const name = TAG_SHAPE.exec(inside)?.[1];
  const shown = excerpt(inside.trim()) || ' ';
  const unknown = {
    ok: false as const,
    reason: `\`{{${shown}}}\` is not a merge tag; the tags are ${[...MERGE_TAGS, 'fields.<key>'].join(', ')}.`,
  };
  if (name === undefined) return unknown;
  if (name.startsWith('fields.')) {
    const key = name.slice('fields.'.length);
    return fieldKeys.includes(key)
      ? { ok: true, value: `fields.${key}` }
      : { ok: false, reason: `\`{{${name}}}\` names no field of this waitlist.` };
  }
  const known = MERGE_TAGS.find((t) => t === name);
  return known === undefined ? unknown : { ok: true, value: known };
}

/** The values of the tags for one subscriber; a tag without a value is left empty. */
export type TagValues = ReadonlyMap<MergeTag, string>;

/** The template's text with its tags filled. */
export function fill(parts: readonly TemplatePart[], values: TagValues): string {
  return parts.map((p) => ('text' in p ? p.text : (values.get(p.tag) ?? ''))).join('');
}

/** A subject: one line, whatever the values hold (a header cannot carry a line break). */
export function fillSubject(parts: readonly TemplatePart[], values: TagValues): string {
  return fill(parts, values)
    .replace(/[\r\n]+/g, ' ')
    .trim();
}

/** An address a reader may follow from the HTML part: http and https only. */
const LINK = /\bhttps?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)\]]/g;

/**
 * The HTML part, made from the filled text: paragraphs (split on blank lines), line breaks, and
 * links for the http(s) addresses in it; everything else escaped, values included, so a value
 * of `<script>` is shown as text.
 */
export function htmlFromText(text: string, speech?: { lang: string; dir: 'ltr' | 'rtl' }): string {
  const paragraphs = text
    .replace(/\r\n?/g, '\n')
    .split(/\n{2,}/)
    .map((p) => p.trim())
    .filter((p) => p !== '');
  const body = paragraphs.map((p) => `<p>${linked(p).replace(/\n/g, '<br>\n')}</p>`).join('\n');
  return `<!doctype html>
<html${speech ? ` lang="${escapeHtml(speech.lang)}" dir="${speech.dir}"` : ''}><body style="font-family: system-ui, sans-serif; line-height: 1.5; color: #111">
${body}
</body></html>
`;
}

function linked(paragraph: string): string {
  let html = '';
  let at = 0;
  for (const match of paragraph.matchAll(LINK)) {
    const start = match.index ?? 0;
    html += escapeHtml(paragraph.slice(at, start));
    const href = escapeHtml(match[0]);
    html += `<a href="${href}">${href}</a>`;
    at = start + match[0].length;
  }
  return html + escapeHtml(paragraph.slice(at));
}
