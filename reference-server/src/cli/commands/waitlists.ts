/** Waitlists and their settings, as options made from the fields the dashboard's form is made from too. */
import { SETTING_FIELDS } from '../../domain/setting-fields.js';
import type { SettingsPatch } from '../../domain/settings.js';
import { type Command, idOption, inScope, optionalStr, shown, str } from '../command.js';
import { readFieldsFile } from '../fields-file.js';
import { type OptionSpec, type ParsedOptions, parsedBy } from '../options.js';
import { waitlistJson } from '../output.js';

export const WAITLIST_SETTING_OPTIONS: OptionSpec[] = SETTING_FIELDS.map((field): OptionSpec => {
  const base = { name: field.key.replaceAll('_', '-'), description: field.help };
  switch (field.kind) {
    case 'switch':
      return { ...base, kind: 'switch' };
    case 'int':
      return { ...base, kind: 'int', min: field.min, max: field.max };
    case 'choice':
      return { ...base, kind: 'enum', values: field.values, placeholder: field.placeholder };
    case 'text':
      return {
        ...base,
        description: `${field.help} (an empty string clears)`,
        kind: 'string',
        placeholder: field.placeholder,
        maxLength: 2000,
        clearable: true,
      };
    default:
      return {
        ...base,
        description: field.key === 'origins' ? field.help : `${field.help} (an empty string clears)`,
        kind: 'list',
        placeholder: field.placeholder,
        item: field.item,
      };
  }
});

const FIELDS_OPTION: OptionSpec = {
  name: 'fields',
  kind: 'string',
  placeholder: 'FILE.json',
  maxLength: 4096,
  description:
    'the questions the form asks, a JSON array of {key, label, type, required, options?} ([] removes all)',
};

/** `--pow-difficulty 20` → `{ pow_difficulty: 20 }`: setting names are the option names in snake case. */
function settingsPatch(options: ParsedOptions): SettingsPatch {
  const patch: Record<string, unknown> & SettingsPatch = {};
  for (const spec of WAITLIST_SETTING_OPTIONS) {
    if (options[spec.name] !== undefined) patch[spec.name.replaceAll('-', '_')] = options[spec.name];
  }
  for (const field of SETTING_FIELDS) {
    const raw = options[field.key.replaceAll('_', '-')];
    if (field.kind !== 'text' || typeof raw !== 'string') continue;
    const option = `--${field.key.replaceAll('_', '-')}`;
    (patch as Record<string, unknown>)[field.key] = parsedBy(option, field.parse, raw);
  }
  const fields = optionalStr(options, 'fields');
  if (fields !== undefined) patch.fields = readFieldsFile(fields);
  return patch as SettingsPatch;
}

export const WAITLIST_COMMANDS: Command[] = [
  {
    name: 'waitlist create',
    summary: 'create a waitlist',
    options: [
      idOption('tenant', 'tenant', 'ten_'),
      { name: 'name', kind: 'string', placeholder: 'NAME', required: true, description: 'display name' },
      ...WAITLIST_SETTING_OPTIONS,
      FIELDS_OPTION,
    ],
    run: (o, context) =>
      inScope({ tenant: str(o, 'tenant') }, context, async ({ waitlists }, scope) =>
        shown(await waitlists.create(scope, str(o, 'name'), settingsPatch(o)), waitlistJson),
      ),
  },
  {
    name: 'waitlist update',
    summary: "change a waitlist's settings",
    options: [
      idOption('waitlist', 'waitlist', 'wl_'),
      { name: 'name', kind: 'string', placeholder: 'NAME', description: 'display name' },
      ...WAITLIST_SETTING_OPTIONS,
      FIELDS_OPTION,
    ],
    run: (o, context) =>
      inScope({ waitlist: str(o, 'waitlist') }, context, async ({ waitlists }, scope) => {
        const change = { name: optionalStr(o, 'name'), patch: settingsPatch(o) };
        return shown(await waitlists.update(scope, str(o, 'waitlist'), change), waitlistJson);
      }),
  },
  {
    name: 'waitlist show',
    summary: 'print a waitlist and its settings, fields included',
    options: [idOption('waitlist', 'waitlist', 'wl_')],
    run: (o, context) =>
      inScope({ waitlist: str(o, 'waitlist') }, context, async ({ waitlists }, scope) =>
        shown(await waitlists.get(scope, str(o, 'waitlist')), waitlistJson),
      ),
  },
  {
    name: 'waitlist archive',
    summary: 'archive a waitlist (both APIs answer 404 for it afterwards)',
    options: [idOption('waitlist', 'waitlist', 'wl_')],
    run: (o, context) =>
      inScope({ waitlist: str(o, 'waitlist') }, context, async ({ waitlists }, scope) =>
        shown(await waitlists.update(scope, str(o, 'waitlist'), { archive: true }), waitlistJson),
      ),
  },
];
