/** The machine a run measured on, for the terminal and BENCHMARKS.md. */
import { createRequire } from 'node:module';
import { cpus, loadavg, release, totalmem } from 'node:os';
import Database from 'better-sqlite3';
import sqlite3 from 'sqlite3';
import { wrkVersion } from './wrk.js';

const require = createRequire(import.meta.url);
const versionOf = (name: string) => (require(`${name}/package.json`) as { version: string }).version;

export interface Machine {
  cpu: string;
  cores: number;
  memory: string;
  os: string;
  node: string;
  date: string;
  wrk: string;
  betterSqlite3: string;
  sqlite3: string;
  load: string;
}

/** The SQLite that better-sqlite3 bundles. */
function betterSqliteVersion(): string {
  const db = new Database(':memory:');
  try {
    return db.prepare('SELECT sqlite_version() AS v').get<{ v: string }>()?.v ?? '?';
  } finally {
    db.close();
  }
}

/** The SQLite that the sqlite3 driver bundles (asynchronous, like everything in that driver). */
function sqlite3Version(): Promise<string> {
  return new Promise((resolve) => {
    const db = new sqlite3.Database(':memory:');
    db.get('SELECT sqlite_version() AS v', (error: Error | null, row?: { v: string }) => {
      db.close();
      resolve(error || !row ? '?' : row.v);
    });
  });
}

export async function machine(): Promise<Machine> {
  const cpu = cpus();
  return {
    cpu: cpu[0]?.model.trim() ?? 'unknown',
    cores: cpu.length,
    memory: `${Math.round(totalmem() / 2 ** 30)} GiB`,
    os: `${process.platform} ${release()}`,
    node: process.version,
    date: new Date().toISOString(),
    wrk: wrkVersion()?.replace(/\s*Copyright.*$/, '') ?? 'not installed',
    betterSqlite3: `${versionOf('better-sqlite3')} (SQLite ${betterSqliteVersion()})`,
    sqlite3: `${versionOf('sqlite3')} (SQLite ${await sqlite3Version()})`,
    load: loadavg()
      .map((l) => l.toFixed(2))
      .join(' '),
  };
}
