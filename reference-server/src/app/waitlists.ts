/**
 * Waitlists of a tenant: created, listed, their settings changed, archived. Any operator of the
 * tenant may, members too: the settings are the waitlist's, not the organisation's secrets.
 */
import { DomainError } from '../domain/errors.js';
import type { Waitlist } from '../domain/records.js';
import {
  applySettings,
  DEFAULT_SETTINGS,
  type SettingsPatch,
  type WaitlistSettings,
} from '../domain/settings.js';
import { type Base, own, type Scope } from './guard.js';
import { cleanName } from './names.js';
import { notFound, type OperatorRefusal, ok, type Result, refuse } from './refusal.js';

/** The settings after `patch`, or why not: geo rules are an allow list or a deny list, never both. */
function settingsAfter(current: WaitlistSettings, patch: SettingsPatch): Result<WaitlistSettings> {
  try {
    return ok(applySettings(current, patch));
  } catch (error) {
    // The domain's rules throw their refusals; anything else is a bug and goes on.
    if (!(error instanceof DomainError) || (error.code !== 'invalid_request' && error.code !== 'conflict'))
      throw error;
    const refused: OperatorRefusal = { code: error.code, message: error.message };
    if (error.field !== undefined) refused.field = error.field;
    if (error.remedy !== undefined) refused.remedy = error.remedy;
    return refuse(refused);
  }
}

export class Waitlists {
  constructor(private readonly ctx: Base) {}

  async create(scope: Scope, name: string, patch: SettingsPatch): Promise<Result<Waitlist>> {
    const clean = cleanName(name, 'waitlist');
    if (!clean.ok) return clean;
    const settings = settingsAfter({ ...DEFAULT_SETTINGS }, patch);
    if (!settings.ok) return settings;
    const { store, clock } = this.ctx;
    return ok(
      await store.write((tx) =>
        tx.waitlists.insert(scope.tenantId, clean.value, settings.value, clock.now()),
      ),
    );
  }

  list(scope: Scope): Promise<Waitlist[]> {
    return this.ctx.store.reads.waitlists.list(scope.tenantId);
  }

  /** A waitlist of the scope's tenant, archived ones too. */
  async get(scope: Scope, id: string): Promise<Result<Waitlist>> {
    const waitlist = own(scope, await this.ctx.store.reads.waitlists.get(id));
    return waitlist ? ok(waitlist) : refuse(notFound('waitlist', id));
  }

  /** Reads and writes in one transaction, so two concurrent updates cannot lose each other's settings. */
  update(
    scope: Scope,
    id: string,
    change: { name?: string | undefined; patch?: SettingsPatch; archive?: boolean },
  ): Promise<Result<Waitlist>> {
    const name = change.name === undefined ? undefined : cleanName(change.name, 'waitlist');
    if (name && !name.ok) return Promise.resolve(name);
    return this.ctx.store.write(async (tx) => {
      const before = own(scope, await tx.waitlists.get(id));
      if (!before) return refuse(notFound('waitlist', id));
      const settings = settingsAfter(before.settings, change.patch ?? {});
      if (!settings.ok) return settings;
      const after = {
        name: name?.value ?? before.name,
        settings: settings.value,
        archived: change.archive === true || before.archived,
      };
      return ok(await tx.waitlists.save(before, after, this.ctx.clock.now()));
    });
  }
}
