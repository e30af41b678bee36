/**
 * Where a search's time goes on SQLite (item 5): the server's own statements for `q`, run in the
 * benchmark's process on the server's file with the server's own connection code (server-code.ts),
 * each step alone and timed in rounds, so the HTTP figure can be set beside its parts.
 *
 * - `index`: the trigram index alone, counting the candidates it offers for the trigrams the
 *   server picks (store/sqlite/trigrams.ts).
 * - `rows`: those candidates each read by rowid and checked (waitlist, status, the needle itself),
 *   only counted. An exact total needs every hit's row, so no search through this index can cost less.
 * - `page`: the statement the server runs, which also keeps the hits to count and order them.
 * - `list`: everything the server's store does for the page (listSubscribers), without HTTP.
 */
import { ok as assert } from 'node:assert/strict';
import type { ServerCode } from './server-code.js';
import { fmtInt, fmtMs, fmtPct, median } from './stats.js';
import type { Row, Section } from './table.js';

export interface SearchSteps {
  index: number[];
  rows: number[];
  page: number[];
  list: number[];
  /** What the index offered, and how many of them were waiting matches. */
  candidates: number;
  hits: number;
}

const STEPS = ['index', 'rows', 'page', 'list'] as const;

/** Times the steps of `q` on the waiting line of `waitlistId`, `n` rounds after three untimed. */
export async function searchSteps(
  code: ServerCode,
  dbPath: string,
  waitlistId: string,
  { q, limit, n }: { q: string; limit: number; n: number },
): Promise<SearchSteps> {
  const db = await code.Connection.open(dbPath);
  try {
    await code.configure(db, { writer: false });
    const needle = code.searchText(q);
    const query = code.trigramQuery(needle, await code.trigramSample(db));
    assert(query, `q="${q}" is not one the trigram index can answer`);
    const row = await db.get<{ settings: string }>('SELECT settings FROM waitlists WHERE id = ?', [
      waitlistId,
    ]);
    assert(row, `no waitlist ${waitlistId}`);
    const settings = code.settingsFromJson(row.settings);
    const params = [waitlistId, query.match, needle];
    const count = async (sql: string, values: readonly unknown[]) =>
      (await db.get<{ n: number }>(sql, values))?.n ?? 0;
    const run = {
      index: () =>
        count('SELECT count(*) AS n FROM subscribers_fts WHERE subscribers_fts MATCH ?', [query.match]),
      rows: () =>
        count(
          `SELECT count(*) AS n FROM ${code.SEARCH_FROM.index} WHERE ${code.SEARCH_MATCHES} AND s.admitted_us IS NULL`,
          params,
        ),
      page: async () =>
        (
          await db.all<{ total: number }>(code.searchPage(code.SEARCH_FROM.index, 'waiting'), [
            ...params,
            limit,
            0,
          ])
        )[0]?.total ?? 0,
      list: async () =>
        (await code.listSubscribers(db, waitlistId, settings, { page: 1, limit, q, status: 'waiting' }))
          .total,
    };
    const candidates = await run.index();
    const hits = await run.rows();
    // Every step counts the same hits (the index offers at least those), so each did the whole work.
    assert(candidates >= hits, `the index offered ${candidates} candidates for ${hits} hits`);
    for (const step of ['page', 'list'] as const) {
      const total = await run[step]();
      assert(total === hits, `${step}: total ${total}, the counted hits ${hits}`);
    }
    const times: Record<(typeof STEPS)[number], number[]> = { index: [], rows: [], page: [], list: [] };
    for (let round = 0; round < n + 3; round++) {
      for (const step of STEPS) {
        const start = performance.now();
        await run[step]();
        if (round >= 3) times[step].push(performance.now() - start);
      }
    }
    return { ...times, candidates, hits };
  } finally {
    await db.close();
  }
}

/** One state of the line: its steps, and the p50s over HTTP of q and page 1 in the table's rounds. */
export interface SearchState {
  label: string;
  steps: SearchSteps;
  http: { q: number; page1: number; healthz: number };
}

/**
 * Item 5's breakdown of q at one size: each state's steps beside its q over HTTP, and a note
 * saying what of the HTTP figure the least exact search costs and what is left to the rest.
 */
export function searchStepsSection(size: number, q: string, states: readonly SearchState[]): Section {
  const rows: Row[] = [];
  const notes: string[] = [];
  for (const { label, steps, http } of states) {
    const p50 = {
      index: median(steps.index),
      rows: median(steps.rows),
      page: median(steps.page),
      list: median(steps.list),
    };
    const row = (name: string, ms: number): Row => ({
      name: `${label}: ${name}`,
      value: fmtMs(ms),
      share: fmtPct(ms / http.q),
    });
    rows.push(
      row('q over HTTP (the table above)', http.q),
      row(`the trigram index alone (${fmtInt(steps.candidates)} candidates)`, p50.index),
      row(`and every candidate read and checked, only counted (${fmtInt(steps.hits)} hits)`, p50.rows),
      row("the server's statement: and the hits kept, counted, ordered, a page taken", p50.page),
      row("the store's whole answer (listSubscribers: and the page's rows, positions, line size)", p50.list),
    );
    notes.push(
      `${label}: of q's ${fmtMs(http.q)} over HTTP, ${fmtMs(p50.rows)} (${fmtPct(p50.rows / http.q)}) is ` +
        `reading and checking every candidate the index offers, which an exact total cannot skip here: each ` +
        `hit's waitlist, status and text are in its row only. Keeping the hits to count and order them adds ` +
        `${fmtMs(p50.page - p50.rows)}, the rest of the store's answer ${fmtMs(p50.list - p50.page)}, and HTTP, ` +
        `the key and the JSON ${fmtMs(http.q - p50.list)} (page 1 over HTTP, its own answer included, takes ` +
        `${fmtMs(http.page1)}; /healthz ${fmtMs(http.healthz)}).`,
    );
  }
  return {
    title: `Item 5: where q="${q}" spends its time on SQLite at ${fmtInt(size)}`,
    intro:
      "The server's own statements for the search (its store code, bundled from reference-server/src, on its " +
      "own kind of connection to the same file) run in the benchmark's process while the server idles, each " +
      'step alone, in rounds; p50s. Each step does the one before it and more (lib/search-steps.ts), so the ' +
      'rows read as a running total, set beside the q over HTTP measured in the table above.',
    columns: [
      { key: 'name', header: 'step' },
      { key: 'value', header: 'p50' },
      { key: 'share', header: 'share of q over HTTP' },
    ],
    rows,
    notes: [
      ...notes,
      "With rows admitted, most of the rest of the store's answer is the hits' positions: each needs the " +
        'count of rows out of join order before it (the admitted, the referrers moved up), read from their ' +
        'index, which the first waiting hits have a tenth of the waitlist of ("GET one waiting" above pays the ' +
        'same counts).',
    ],
  };
}
