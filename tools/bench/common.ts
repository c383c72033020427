/** Helpers shared by the benchmark's sections: statistics, /proc readings, child processes, clean-up. */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export const ROOT = resolve(__dirname, '../..');
/** Cached media and the last run's figures (git-ignored with the rest of .data/). */
export const BENCH_DIR = resolve(ROOT, process.env['WORDCUT_DATA_DIR'] ?? '.data', 'bench');
export const BUCKET = 'wordcut-bench';
export const S3_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

export const MB = 1024 * 1024;

/** The gateway refuses to start without a provider key source; the benchmark never uses one (nothing listens on port 9). */
export const UNUSED_JWKS_URL = 'http://127.0.0.1:9/jwks.json';

/** Nearest-rank percentile (p in 0..100) of a non-empty list. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) throw new Error('percentile of an empty list');
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1]!;
}

export const median = (values: readonly number[]): number => percentile(values, 50);

export const round = (n: number, digits = 1): number => Math.round(n * 10 ** digits) / 10 ** digits;

/** A positive integer from the environment (`dflt` when unset or empty). */
export function intEnv(name: string, dflt: number): number {
  const v = process.env[name];
  const n = v === undefined || v === '' ? dflt : Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, got ${v}`);
  return n;
}

/** Like intEnv, but 0 is allowed. */
export const countEnv = (name: string, dflt: number): number => (process.env[name] === '0' ? 0 : intEnv(name, dflt));

// ---- targets: a figure, the bound it should meet, and whether it did ----

export interface TargetCheck {
  /** What the figure is, e.g. 'upload: streaming throughput / plain put'. */
  name: string;
  value: number;
  unit: string;
  comparison: '>=' | '<' | '<=';
  threshold: number;
  pass: boolean;
}

export function checkTarget(name: string, value: number, comparison: '>=' | '<' | '<=', threshold: number, unit = ''): TargetCheck {
  if (!Number.isFinite(value)) throw new Error(`target ${name}: the figure is not a number (${value})`);
  const pass = comparison === '>=' ? value >= threshold : comparison === '<=' ? value <= threshold : value < threshold;
  return { name, value, unit, comparison, threshold, pass };
}

/** e.g. `target >= 0.8: PASS` or `target < 30 ms: MISS`. */
export function targetMark(t: TargetCheck): string {
  return `target ${t.comparison} ${t.threshold}${t.unit ? ` ${t.unit}` : ''}: ${t.pass ? 'PASS' : 'MISS'}`;
}

/** Resident set now and its high-water mark, from /proc/<pid>/status (bytes). */
export function procMemory(pid: number): { rssBytes: number; hwmBytes: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    if (!m) throw new Error(`no ${field} in /proc/${pid}/status`);
    return Number(m[1]) * 1024;
  };
  return { rssBytes: kb('VmRSS'), hwmBytes: kb('VmHWM') };
}

/** User + system CPU seconds a process has used so far, from /proc/<pid>/stat (Linux clock ticks of 1/100 s). */
export function procCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // the command name (field 2) may contain spaces and parentheses: count fields after the last ')'
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime are fields 14 and 15
}

/** A TCP port free right now on 127.0.0.1. */
export { freePort } from '../testing/env';

// ---- interruption (SIGINT/SIGTERM): the run stops at the next check, then cleans up ----

let interrupted = false;
export function interrupt(): void {
  interrupted = true;
}
export function isInterrupted(): boolean {
  return interrupted;
}
/** Throws once the run was interrupted: call before creating anything that needs cleaning up. */
export function checkInterrupted(): void {
  if (interrupted) throw new Error('interrupted');
}

// ---- clean-up: everything the run creates registers how to remove it, removed in reverse order ----

const cleanups: Array<{ what: string; fn: () => unknown }> = [];

export function onCleanup(what: string, fn: () => unknown): () => void {
  const entry = { what, fn };
  cleanups.push(entry);
  return () => {
    const i = cleanups.indexOf(entry);
    if (i >= 0) cleanups.splice(i, 1);
  };
}

/** Runs and forgets every registered clean-up, newest first; reports failures and goes on. */
export async function cleanupAll(): Promise<void> {
  while (cleanups.length > 0) {
    const { what, fn } = cleanups.pop()!;
    try {
      await fn();
    } catch (err) {
      process.stderr.write(`bench: clean-up of ${what} failed: ${(err as Error).message}\n`);
    }
  }
}

// ---- TypeScript child processes with an IPC channel (they exit when the channel closes) ----

export interface Child {
  proc: ChildProcess;
  pid: number;
  /** Resolves with the first message for which `match` returns a value. */
  message<T>(match: (m: unknown) => T | undefined, timeoutMs?: number): Promise<T>;
  send(m: unknown): void;
  stop(): Promise<void>;
}

export function forkTs(script: string, env: NodeJS.ProcessEnv = {}): Child {
  checkInterrupted();
  const proc = fork(resolve(__dirname, script), [], {
    cwd: ROOT,
    // tsx's CommonJS hook only: its ESM loader would add a loader thread (~45 MiB) to every child's RSS
    execArgv: ['--require', 'tsx/cjs'],
    env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  if (proc.pid === undefined) throw new Error(`could not start ${script}`);
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  const stop = async () => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    proc.kill('SIGTERM');
    const timer = setTimeout(() => proc.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  const forget = onCleanup(`child ${script} (pid ${proc.pid})`, stop);
  void exited.then(forget);
  return {
    proc,
    pid: proc.pid,
    send: (m) => proc.send(m as object),
    stop,
    message<T>(match: (m: unknown) => T | undefined, timeoutMs = 60_000): Promise<T> {
      return new Promise<T>((ok, fail) => {
        const done = () => {
          clearTimeout(timer);
          proc.off('message', onMessage);
          proc.off('exit', onExit);
        };
        const onMessage = (m: unknown) => {
          const v = match(m);
          if (v !== undefined) {
            done();
            ok(v);
          }
        };
        const onExit = (code: number | null) => {
          done();
          fail(new Error(`${script} exited (${code}) before answering`));
        };
        const timer = setTimeout(() => {
          done();
          fail(new Error(`${script} did not answer within ${timeoutMs} ms`));
        }, timeoutMs);
        proc.on('message', onMessage);
        proc.once('exit', onExit);
      });
    },
  };
}

/** For child scripts: exit when the parent goes away (its IPC channel closes) or asks us to stop. */
export function exitWithParent(shutdown: () => Promise<void> | void): void {
  let closing = false;
  const bye = () => {
    if (closing) return;
    closing = true;
    Promise.resolve()
      .then(shutdown)
      .catch(() => undefined)
      .finally(() => process.exit(0));
  };
  process.on('disconnect', bye);
  process.on('SIGTERM', bye);
  process.on('SIGINT', bye);
}

export function send(m: unknown): void {
  process.send?.(m);
}
