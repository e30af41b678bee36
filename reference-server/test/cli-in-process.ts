/** The command line in process, on a test file's database: the same code as the binary, without a process per call. */
import { expect } from 'vitest';
import { runCommandLine } from '../src/cli/main.js';

export function inProcess(defaultDb: string) {
  async function run(args: readonly string[], db = defaultDb) {
    let stdout = '';
    let stderr = '';
    const code = await runCommandLine([...args, '--db', db], {
      stdout: (t) => {
        stdout += t;
      },
      stderr: (t) => {
        stderr += t;
      },
      env: {},
    });
    return {
      code,
      json: stdout ? JSON.parse(stdout) : undefined,
      error: stderr ? JSON.parse(stderr).error : undefined,
    };
  }
  async function ok(args: string[]) {
    const result = await run(args);
    expect(result.error).toBeUndefined();
    expect(result.code).toBe(0);
    return result.json;
  }
  return { run, ok };
}
