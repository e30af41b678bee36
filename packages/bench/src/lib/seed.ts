/**
 * Fills one waitlist with `n` subscribers straight into SQLite (better-sqlite3, one transaction of
 * prepared inserts), for list and driver benchmarks at sizes the HTTP API would take hours to
 * reach. The schema comes from the server's own migrations: the tenant, waitlist and key are
 * created with its command line first.
 *
 * Every column is what the server would have written: dense `seq` 1..n, `joined_us` strictly
 * increasing, `email_norm` and `email_search` the lower-cased address, unique ids, status tokens
 * and referral codes from the protocol's alphabets, and referrals that add up: about 7 % of the
 * subscribers are referrers with 1–5 credited referrals, each credit a later subscriber whose
 * `referred_by` points at them (and so `credited`: the list shows them as the `referral` channel),
 * and `rank_key = seq` (boost 0; benchmarks set a boost with the command
 * line, which re-ranks the referrers as it would on any waitlist). Everyone is seeded
 * waiting (docs/subscribers.md#lifecycle): `admitted_us` stays NULL, nobody is erased (no `erased_seqs`), and the
 * waitlist's `admitted_count` and `erased_count` keep their 0; benchmarks admit through the API.
 *
 * A `launch` waitlist (item 14's) has a year of it: joins spread over the 366 UTC days up to an
 * hour ago, and those not credited come from a handful of channels (LAUNCH_SOURCES), each with
 * the source a sign-up from there keeps.
 */
import { randomBytes } from 'node:crypto';
import {
  BASE62_ALPHABET,
  channelOf,
  IdPrefix,
  REFERRAL_CODE_ALPHABET,
  type Source,
} from '@waitlistkit/protocol';
import Database from 'better-sqlite3';

const FIRST = [
  'maria',
  'james',
  'ana',
  'li',
  'noah',
  'emma',
  'oliver',
  'sofia',
  'lucas',
  'mia',
  'ivan',
  'zoe',
];
const LAST = ['garcia', 'smith', 'kim', 'nguyen', 'muller', 'rossi', 'silva', 'khan', 'cohen', 'dubois'];
const DOMAINS = [
  'gmail.com',
  'outlook.com',
  'proton.me',
  'acme.io',
  'fastmail.com',
  'example.org',
  'yahoo.co.uk',
];

/** A search string that matches about 1 in FIRST × LAST subscribers (a name typed by an operator). */
export const SEARCH_Q = 'maria.garcia';

/** Deterministic pseudo-random numbers (mulberry32): the same data for the same seed. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `length` characters of `alphabet` from the CSPRNG, like the protocol's randomString. */
function randomStrings(alphabet: string, length: number, count: number): string[] {
  const bytes = randomBytes(length * count);
  const out = new Array<string>(count);
  for (let i = 0; i < count; i++) {
    let s = '';
    for (let j = 0; j < length; j++) s += alphabet[(bytes[i * length + j] as number) % alphabet.length];
    out[i] = s;
  }
  return out;
}

/**
 * Unique 6-character referral codes: i ↦ i × odd constant mod 32^6 is a bijection, so codes never
 * collide yet look random.
 */
function referralCode(i: number): string {
  let x = Number((BigInt(i + 1) * 0x2545f491n) % 1073741824n);
  let s = '';
  for (let j = 0; j < 6; j++) {
    s += REFERRAL_CODE_ALPHABET[x & 31];
    x >>>= 5;
  }
  return s;
}

/** The columns a seeder writes besides the waitlist, in the order of `subscriberRows`' values. */
export const SUBSCRIBER_COLUMNS = [
  'id',
  'seq',
  'email',
  'email_norm',
  'email_search',
  'referral_code',
  'status_token',
  'referred_by',
  'referral_count',
  'rank_key',
  'joined_us',
  'credited',
  'fields',
  'source',
  'source_channel',
] as const;

export type SubscriberRow = [
  id: string,
  seq: number,
  email: string,
  emailNorm: string,
  emailSearch: string,
  referralCode: string,
  statusToken: string,
  referredBy: string | null,
  referralCount: number,
  rankKey: number,
  joinedUs: number,
  credited: 0 | 1,
  fields: string | null,
  source: string | null,
  sourceChannel: string | null,
];

/**
 * The answers and source a sign-up of item 4e keeps (docs/subscribers.md#fields,
 * docs/subscribers.md#attribution): two answers, all seven source keys, the channel they give.
 * What item 5's "with fields stored" rows read.
 */
export const STORED_EXTRAS = {
  fields: JSON.stringify({ company: 'Analytical Engines Ltd', role: 'Founder' }),
  source: JSON.stringify({
    utm_source: 'newsletter',
    utm_medium: 'email',
    utm_campaign: 'launch-2026',
    utm_term: 'waitlist',
    utm_content: 'header-link',
    referrer: 'https://news.example/posts/launch',
    landing: 'https://bench.example/',
  }),
  sourceChannel: 'newsletter',
} as const;

const LANDING = 'https://bench.example/';

/**
 * Where a launch's sign-ups come from (besides referrals), with their shares: the source each
 * keeps (docs/subscribers.md#attribution) and so its channel.
 */
export const LAUNCH_SOURCES: readonly { share: number; source: Source }[] = [
  { share: 0.4, source: {} },
  { share: 0.15, source: { utm_source: 'newsletter', utm_medium: 'email', landing: LANDING } },
  { share: 0.12, source: { utm_source: 'producthunt', landing: LANDING } },
  { share: 0.1, source: { referrer: 'https://news.ycombinator.com/item?id=41000000', landing: LANDING } },
  { share: 0.1, source: { referrer: 'https://www.google.com/', landing: LANDING } },
  { share: 0.08, source: { utm_source: 'twitter', utm_medium: 'social', landing: LANDING } },
  { share: 0.05, source: { utm_source: 'linkedin', utm_medium: 'social', landing: LANDING } },
];

const DAY_US = 86_400_000_000;
const dayOf = (us: number) => new Date(Math.floor(us / DAY_US) * 86_400_000).toISOString().slice(0, 10);

/** What was seeded, to check the server's answers against. */
export interface SeedFacts {
  n: number;
  referrers: number;
  /** Subscribers credited to a referrer: the `referral` channel; everyone else is `direct` (without extras). */
  referred: number;
  /** Subscribers whose email contains SEARCH_Q. */
  searchMatches: number;
  lastJoinedUs: number;
  /** The last to join: never a referrer (credits go to later subscribers), so always last in line. */
  lastId: string;
  /** Subscribers by channel (docs/subscribers.md#attribution). */
  channels: Record<string, number>;
  /** The UTC days (YYYY-MM-DD) the joins were spread over, first and last: every join is in them. */
  firstDay: string;
  lastDay: string;
}

/**
 * The subscribers of one waitlist as the seeders store them, one row of column values after
 * another; `facts` is filled in as the rows are made and complete once the last one is. The same
 * `seed` makes the same people, referrals and join times on either store; ids, status tokens come
 * from the CSPRNG. `extras`: every row has STORED_EXTRAS' answers and source, else none;
 * `launch`: a year of joins from LAUNCH_SOURCES (see the top of this file).
 */
export function subscriberRows(
  n: number,
  { referrerShare = 0.07, seed = 42, extras = false, launch = false } = {},
): { rows: Generator<SubscriberRow>; facts: SeedFacts } {
  const random = rng(seed);
  const referralCount = new Int32Array(n);
  const referredBy = new Int32Array(n).fill(-1);
  // Referrers and their referees: each credit is a later subscriber, referred by exactly one.
  for (let i = 0; i < n - 1; i++) {
    if (random() >= referrerShare) continue;
    const wanted = 1 + Math.floor(random() ** 2 * 5);
    for (let k = 0, tries = 0; k < wanted && tries < 20; tries++) {
      const j = i + 1 + Math.floor(random() * Math.min(n - i - 1, 5000));
      if (j >= n || referredBy[j] !== -1) continue;
      referredBy[j] = i;
      referralCount[i] = (referralCount[i] ?? 0) + 1;
      k++;
    }
  }
  const ids = randomStrings(BASE62_ALPHABET, 16, n).map((s) => IdPrefix.subscriber + s);
  const tokens = randomStrings(`${BASE62_ALPHABET}-_`, 24, n);
  const facts: SeedFacts = {
    n,
    referrers: 0,
    referred: 0,
    searchMatches: 0,
    lastJoinedUs: 0,
    lastId: ids[n - 1] ?? '',
    channels: {},
    firstDay: '',
    lastDay: '',
  };
  const launchSources = LAUNCH_SOURCES.map(({ share, source }) => ({
    share,
    json: Object.keys(source).length > 0 ? JSON.stringify(source) : null,
    channel: channelOf(source, false),
  }));
  const pickSource = () => {
    let r = random();
    for (const s of launchSources) {
      r -= s.share;
      if (r < 0) return s;
    }
    return launchSources[0] as (typeof launchSources)[number];
  };
  const pick = (list: readonly string[]) => list[Math.floor(random() * list.length)] as string;
  function* rows(): Generator<SubscriberRow> {
    // Joins spread over the past, strictly increasing, ending an hour ago: about one every 2 s,
    // or for a launch one at a random moment of each of n equal slots of its 366 days.
    const endUs = (Date.now() - 3_600_000) * 1000;
    const startUs = launch ? (Math.floor(endUs / DAY_US) - 365) * DAY_US : endUs - n * 2_000_000;
    const slotUs = (endUs - startUs) / n;
    facts.firstDay = dayOf(startUs);
    facts.lastDay = dayOf(endUs);
    let joinedUs = startUs;
    for (let i = 0; i < n; i++) {
      const seq = i + 1;
      joinedUs = launch
        ? Math.max(joinedUs + 1, startUs + Math.floor((i + random()) * slotUs))
        : joinedUs + 1 + Math.floor(random() * 4_000_000);
      const first = pick(FIRST);
      const last = pick(LAST);
      const domain = pick(DOMAINS);
      const local = `${first}.${last}${seq}`;
      // Some people type their address capitalised; the stored email keeps the case.
      const email =
        random() < 0.1 ? `${local.charAt(0).toUpperCase()}${local.slice(1)}@${domain}` : `${local}@${domain}`;
      const lower = email.toLowerCase();
      if (lower.includes(SEARCH_Q)) facts.searchMatches++;
      const count = referralCount[i] as number;
      const referrer = referredBy[i] as number;
      if (count > 0) facts.referrers++;
      if (referrer !== -1) facts.referred++;
      facts.lastJoinedUs = joinedUs;
      const from = launch && referrer === -1 ? pickSource() : undefined;
      const source = extras ? STORED_EXTRAS.source : (from?.json ?? null);
      const sourceChannel = extras
        ? STORED_EXTRAS.sourceChannel
        : from && from.channel !== 'direct'
          ? from.channel
          : null;
      const channel = referrer !== -1 ? 'referral' : (sourceChannel ?? 'direct');
      facts.channels[channel] = (facts.channels[channel] ?? 0) + 1;
      yield [
        ids[i] as string,
        seq,
        email,
        lower,
        lower,
        referralCode(i),
        tokens[i] as string,
        referrer === -1 ? null : (ids[referrer] as string),
        count,
        seq,
        joinedUs,
        // Credited as it is referred: nobody confirms on these waitlists.
        referrer === -1 ? 0 : 1,
        extras ? STORED_EXTRAS.fields : null,
        source,
        sourceChannel,
      ];
    }
  }
  return { rows: rows(), facts };
}

/**
 * Seeds `n` subscribers into `waitlistId` of the SQLite file `dbPath` (which must have no
 * subscribers in that waitlist yet), with STORED_EXTRAS when `extras`. Returns facts the
 * benchmarks check answers against.
 */
export function seedSubscribers(
  dbPath: string,
  waitlistId: string,
  n: number,
  { extras = false, launch = false } = {},
): SeedFacts {
  const db = new Database(dbPath);
  try {
    // Bulk-load settings for this throw-away copy only; the server re-applies WAL and
    // synchronous = FULL when it opens the file.
    db.pragma('journal_mode = MEMORY');
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -1000000');
    db.pragma('temp_store = MEMORY');
    db.pragma('foreign_keys = OFF');
    if (countIn(db, waitlistId) !== 0) throw new Error(`waitlist ${waitlistId} already has subscribers`);
    const insert = db.prepare(
      `INSERT INTO subscribers (waitlist_id, ${SUBSCRIBER_COLUMNS.join(', ')})
       VALUES (?, ${SUBSCRIBER_COLUMNS.map(() => '?').join(', ')})`,
    );
    // The day counts (docs/insights.md#stats) are kept by the schema's triggers as each row goes in.
    const { rows, facts } = subscriberRows(n, { extras, launch });
    db.transaction(() => {
      for (const row of rows) insert.run(waitlistId, ...row);
    })();
    db.pragma('journal_mode = WAL');
    return facts;
  } finally {
    db.close();
  }
}

function countIn(db: Database, waitlistId: string): number {
  return db
    .prepare('SELECT count(*) AS n FROM subscribers WHERE waitlist_id = ?')
    .get<{ n: number }>(waitlistId)?.n as number;
}

/** Number of subscribers of a waitlist, read from the file (WAL: sees what the server committed). */
export function countSubscribers(dbPath: string, waitlistId: string): number {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    return countIn(db, waitlistId);
  } finally {
    db.close();
  }
}

/**
 * Positions of `ids` by sorting the whole line in SQL (the order of docs/subscribers.md#positions over the waiting
 * subscribers only, docs/subscribers.md#lifecycle: admitted ones have no position and are left out of the map), to check
 * the server's answers against: slow at 1M, fine up to 100k.
 */
export function positionsBySorting(
  dbPath: string,
  waitlistId: string,
  ids: readonly string[],
): Map<string, number> {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    const wanted = new Set(ids);
    const out = new Map<string, number>();
    const rows = db
      .prepare(
        `SELECT id, row_number() OVER (ORDER BY rank_key, referral_count DESC, seq) AS position
           FROM subscribers WHERE waitlist_id = ? AND admitted_us IS NULL`,
      )
      .iterate<{ id: string; position: number }>(waitlistId);
    for (const row of rows) if (wanted.has(row.id)) out.set(row.id, row.position);
    return out;
  } finally {
    db.close();
  }
}
