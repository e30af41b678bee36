/**
 * A waitlist's messages and its subscribers' unsubscribes (docs/messages.md). The mail a message's
 * cause queues is the schema's triggers' (sqlite/message-migrations.ts, postgres/part-three-migrations.ts);
 * here are what an editor saves and reads, what a mail is made of when its turn comes, and the
 * unsubscribe its link makes, found by the subscriber's status token.
 */
import type { Language } from '@waitlistkit/protocol';
import { languageOf } from '../../domain/language-of.js';
import type { Message, MessageInput, MessageKind } from '../../domain/messages.js';
import { settingsFromJson } from '../../domain/settings.js';
import type { Db } from '../db.js';
import { type Dialect, perDialect } from '../dialect.js';
import { isTrue, type StoredBoolean } from '../stored-boolean.js';
import { isoNow } from '../time.js';

/** The messages of a waitlist, and the subscriber facts a mail or the unsubscribe page needs. */
export interface Messages {
  /** The version of a kind in `lang`; '' (the default) is the waitlist's own, language-neutral one. */
  get(waitlistId: string, kind: MessageKind, lang?: string): Promise<Message | undefined>;
  /** Every kept version of a kind, by tag (domain/message-choice.ts). */
  versions(waitlistId: string, kind: MessageKind): Promise<Map<string, Message>>;
  /** Saves the version in `lang` ('' the waitlist's own); its switch becomes the kind's, on every version. */
  put(
    waitlistId: string,
    kind: MessageKind,
    lang: string,
    input: MessageInput,
    nowMs: number,
  ): Promise<Message>;
  /** Whom a message's mail goes to, or undefined when they were erased meanwhile. */
  addressee(subscriberId: string): Promise<Addressee | undefined>;
  /** The holder of a status token, or undefined (erased, or never was). */
  byStatusToken(token: string): Promise<Unsubscribing | undefined>;
  /** Unsubscribes the holder of the token, once: a second time changes nothing. */
  unsubscribe(token: string, nowUs: number): Promise<Unsubscribing | undefined>;
  /** Queues an operator's test of a message (app/message-tests.ts) as a mail of the outbox, due at `nowMs`. */
  queueTest(test: TestMail, nowMs: number): Promise<void>;
}

/** A test mail's delivery: `body` is what app/mail-content.ts reads when its turn comes. */
export interface TestMail {
  id: string;
  tenantId: string;
  messageId: string;
  body: string;
}

export interface Addressee {
  waitlistId: string;
  email: string;
  statusToken: string;
  unsubscribed: boolean;
  /** The language recorded at sign-up, if any; its waitlist's default stands in (domain/language-of.ts). */
  lang: string | null;
}

export interface Unsubscribing {
  waitlistName: string;
  unsubscribed: boolean;
  /** The language the page speaks to them (domain/language-of.ts). */
  lang: Language;
}

interface MessageRow {
  kind: MessageKind;
  lang: string;
  subject: string;
  body: string;
  enabled: StoredBoolean;
  updated_at: number;
}

const COLUMNS = 'kind, lang, subject, body, enabled, updated_at';

const GET = `SELECT ${COLUMNS} FROM messages WHERE waitlist_id = ? AND kind = ? AND lang = ?`;

const VERSIONS = `SELECT ${COLUMNS} FROM messages WHERE waitlist_id = ? AND kind = ?`;

/** One switch per kind (domain/message-choice.ts): saving a version sets it on all of them. */
const SWITCH = perDialect(
  (d) => `UPDATE messages SET enabled = CASE WHEN ?3 = 1 THEN ${d.true} ELSE ${d.false} END
  WHERE waitlist_id = ?1 AND kind = ?2`,
);

const PUT = perDialect(
  (d) => `INSERT INTO messages (waitlist_id, kind, lang, subject, body, enabled, updated_at)
  VALUES (?1, ?2, ?7, ?3, ?4, CASE WHEN ?5 = 1 THEN ${d.true} ELSE ${d.false} END, ?6)
  ON CONFLICT (waitlist_id, kind, lang) DO UPDATE
    SET subject = excluded.subject, body = excluded.body, enabled = excluded.enabled, updated_at = excluded.updated_at
  RETURNING ${COLUMNS}`,
);

const ADDRESSEE = `SELECT waitlist_id, email, status_token, unsubscribed_us, lang FROM subscribers WHERE id = ?`;

const BY_TOKEN = `SELECT w.name, w.settings, s.unsubscribed_us, s.lang FROM subscribers AS s JOIN waitlists AS w ON w.id = s.waitlist_id
  WHERE s.status_token = ?`;

const UNSUBSCRIBE = `UPDATE subscribers SET unsubscribed_us = coalesce(unsubscribed_us, CAST(?2 AS BIGINT))
  WHERE status_token = ?1 RETURNING waitlist_id`;

/** About no subscriber: erasure finds nothing of anyone's in it, and pruning forgets it once sent. */
const QUEUE_TEST = `INSERT INTO deliveries (id, channel, tenant_id, message_id, event_type, body, state, next_at, created_at)
  VALUES (?1, 'mail', ?2, ?3, 'test', ?4, 'pending', ?5, ?5)`;

const messageOf = (row: MessageRow): Message => ({
  kind: row.kind,
  subject: row.subject,
  body: row.body,
  enabled: isTrue(row.enabled),
  updated_at: isoNow(Number(row.updated_at)),
});

export function messagesOn(db: Db, d: Dialect): Messages {
  const byStatusToken = async (token: string) => {
    const row = await db.get<{
      name: string;
      settings: string;
      unsubscribed_us: number | null;
      lang: string | null;
    }>(BY_TOKEN, [token]);
    return (
      row && {
        waitlistName: row.name,
        unsubscribed: row.unsubscribed_us !== null,
        lang: languageOf(row, settingsFromJson(row.settings)),
      }
    );
  };
  return {
    get: async (waitlistId, kind, lang = '') => {
      const row = await db.get<MessageRow>(GET, [waitlistId, kind, lang]);
      return row && messageOf(row);
    },
    async versions(waitlistId, kind) {
      const rows = await db.all<MessageRow>(VERSIONS, [waitlistId, kind]);
      return new Map(rows.map((row) => [row.lang, messageOf(row)]));
    },
    async put(waitlistId, kind, lang, input, nowMs) {
      const on = input.enabled ? 1 : 0;
      await db.run(SWITCH(d), [waitlistId, kind, on]);
      const params = [waitlistId, kind, input.subject, input.body, on, nowMs, lang];
      const row = await db.get<MessageRow>(PUT(d), params);
      if (!row) throw new Error('the message was not saved');
      return messageOf(row);
    },
    async addressee(subscriberId) {
      const row = await db.get<{
        waitlist_id: string;
        email: string;
        status_token: string;
        unsubscribed_us: number | null;
        lang: string | null;
      }>(ADDRESSEE, [subscriberId]);
      return (
        row && {
          waitlistId: row.waitlist_id,
          email: row.email,
          statusToken: row.status_token,
          unsubscribed: row.unsubscribed_us !== null,
          lang: row.lang,
        }
      );
    },
    byStatusToken,
    async unsubscribe(token, nowUs) {
      const done = await db.get<{ waitlist_id: string }>(UNSUBSCRIBE, [token, nowUs]);
      return done && byStatusToken(token);
    },
    async queueTest(test, nowMs) {
      await db.run(QUEUE_TEST, [test.id, test.tenantId, test.messageId, test.body, nowMs]);
    },
  };
}
