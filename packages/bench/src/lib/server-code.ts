/**
 * The reference server's own SQLite storage code (the `sqlite3` wrapper, the group committer, the
 * sign-up and list queries), bundled from `reference-server/src` (server-source.ts), so the
 * driver benchmark runs exactly what the server runs. The interfaces say what the benchmark calls
 * of it, in the server's own names.
 */
import { join } from 'node:path';
import { importServerSource } from './server-source.js';

export type Params = readonly unknown[];

/** What store functions call of store/sqlite/connection.ts's Connection. */
export interface SqlStatements {
  run(sql: string, params?: Params): Promise<{ changes: number; lastID: number }>;
  all<Row = Record<string, unknown>>(sql: string, params?: Params): Promise<Row[]>;
  get<Row = Record<string, unknown>>(sql: string, params?: Params): Promise<Row | undefined>;
  exec(sql: string): Promise<void>;
}

/** The Connection itself, or anything shaped like it (better-connection.ts). */
export interface SqlConnection extends SqlStatements {
  close(): Promise<void>;
}

export interface FreshSignup {
  waitlistId: string;
  email: string;
  emailNorm: string;
  confirm: boolean;
}

export interface Outcome {
  outcome: string;
}

export interface PageQuery {
  page: number;
  limit: number;
  q: string;
  status: 'waiting' | 'admitted';
}

/** domain/settings.ts's WaitlistSettings, read from the waitlist's row and handed to listSubscribers. */
export interface Settings {
  readonly referral_boost: number;
}

export interface Committer {
  close(): Promise<void>;
}

export interface ServerCode {
  Connection: { open(path: string): Promise<SqlConnection> };
  Committer: new (connection: SqlConnection) => Committer;
  configure(connection: SqlConnection, options: { writer: boolean }): Promise<void>;
  insertOrMatchMany(
    connection: SqlStatements,
    inputs: readonly FreshSignup[],
    nowUs: number,
  ): Promise<Outcome[]>;
  insertOrMatchSubscriber(
    connection: SqlStatements,
    input: FreshSignup & { referralCode: undefined },
    nowUs: number,
  ): Promise<Outcome>;
  listSubscribers(
    connection: SqlStatements,
    waitlistId: string,
    settings: Settings,
    query: PageQuery,
  ): Promise<{ items: unknown[]; total: number }>;
  storeOver(
    db: { writer: Committer; reader: SqlConnection; close(): Promise<void> },
    clock: { nowMicros(): number },
  ): { signUpFresh(input: FreshSignup): Promise<Outcome> };
  settingsFromJson(text: string): Settings;
  systemClock: { nowMicros(): number };
  /** store/sqlite/line.ts's pieces of a search, and trigrams.ts's choice of what to ask the index. */
  SEARCH_FROM: { index: string; scan: string };
  SEARCH_MATCHES: string;
  searchPage(from: string, status: 'waiting' | 'admitted'): string;
  trigramSample(connection: SqlStatements): Promise<unknown>;
  trigramQuery(needle: string, sample: unknown): { match: string; share: number } | undefined;
  searchText(q: string): string;
}

const ENTRY = `
export { Connection } from './store/sqlite/connection.ts';
export { Committer } from './store/sqlite/committer.ts';
export { configure } from './store/sqlite/migrations.ts';
export { insertOrMatchMany, insertOrMatchSubscriber } from './store/sqlite/subscribers.ts';
export { listSubscribers, SEARCH_FROM, SEARCH_MATCHES, searchPage } from './store/sqlite/line.ts';
export { trigramQuery, trigramSample } from './store/sqlite/trigrams.ts';
export { searchText } from './domain/search.ts';
export { storeOver } from './store/sqlite/index.ts';
export { settingsFromJson } from './domain/settings.ts';
export { systemClock } from './adapters/clock.ts';
`;

export function loadServerCode(tmpDir: string): Promise<ServerCode> {
  return importServerSource<ServerCode>(ENTRY, join(tmpDir, 'server-store.mjs'));
}
