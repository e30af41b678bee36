/**
 * The parts of two untyped packages the benchmarks use (neither ships types, and their @types
 * packages are not in the workspace).
 */

declare module 'better-sqlite3' {
  export interface RunResult {
    changes: number;
    lastInsertRowid: number | bigint;
  }
  export interface Statement {
    /** Whether the statement returns rows. */
    readonly reader: boolean;
    run(...params: unknown[]): RunResult;
    get<Row = Record<string, unknown>>(...params: unknown[]): Row | undefined;
    all<Row = Record<string, unknown>>(...params: unknown[]): Row[];
    iterate<Row = Record<string, unknown>>(...params: unknown[]): IterableIterator<Row>;
  }
  export interface Transaction<F extends (...args: never[]) => unknown> {
    (...args: Parameters<F>): ReturnType<F>;
    /** The same in a `BEGIN IMMEDIATE` transaction. */
    immediate(...args: Parameters<F>): ReturnType<F>;
  }
  export interface Options {
    readonly?: boolean;
    fileMustExist?: boolean;
  }
  class Database {
    constructor(filename: string, options?: Options);
    prepare(sql: string): Statement;
    exec(sql: string): this;
    pragma(source: string): unknown;
    transaction<F extends (...args: never[]) => unknown>(fn: F): Transaction<F>;
    close(): this;
  }
  export default Database;
}

declare module 'express' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface Response extends ServerResponse {
    json(body: unknown): void;
  }
  interface Application {
    (req: IncomingMessage, res: ServerResponse): void;
    disable(setting: string): void;
    set(setting: string, value: unknown): void;
    get(path: string, handler: (req: IncomingMessage, res: Response) => void): void;
  }
  export default function express(): Application;
}
