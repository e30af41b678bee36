/** CPU seconds a process has used so far (user + system, all its threads), from /proc. */
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100; // USER_HZ, 100 on Linux on every architecture Node supports

/** The fields of /proc/<pid>/stat after the command name (which may contain spaces): state is the first. */
export function statFields(path: string): string[] {
  const stat = readFileSync(path, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** utime + stime (+ cutime + cstime with `children`: the reaped children's) in seconds. */
export function cpuSeconds(pid: number | string, { children = false } = {}): number {
  try {
    const f = statFields(`/proc/${pid}/stat`).map(Number);
    const ticks = (f[11] ?? 0) + (f[12] ?? 0) + (children ? (f[13] ?? 0) + (f[14] ?? 0) : 0);
    return ticks / TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}

/**
 * CPU seconds of each thread of a process so far, by thread id (the main thread's id is the
 * process id); an empty map where /proc is not there.
 */
export function threadCpuSeconds(pid: number): Map<number, number> {
  const threads = new Map<number, number>();
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return threads;
  }
  for (const tid of tids) {
    try {
      const f = statFields(`/proc/${pid}/task/${tid}/stat`).map(Number);
      threads.set(Number(tid), ((f[11] ?? 0) + (f[12] ?? 0)) / TICKS_PER_SECOND);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return threads;
}

/**
 * CPU seconds the whole machine has been busy so far, all cores together: /proc/stat's total
 * less idle and iowait (guest time is already in user). NaN where /proc is not there.
 */
export function machineCpuSeconds(): number {
  try {
    const fields =
      readFileSync('/proc/stat', 'utf8').split('\n')[0]?.trim().split(/\s+/).slice(1).map(Number) ?? [];
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = fields;
    return (user + nice + system + irq + softirq + steal) / TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}
