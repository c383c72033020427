/** How the benchmark prints its figures: one plain-text table for run.ts's summary and for every section run alone. */
import { targetMark, type TargetCheck } from './common';

export type Cell = string | number;

/** Plain-text table, indented two spaces; a column of numbers (or number-like text: `12-15`, `1.2 / 3`, `4x`) is right-aligned, the first never. */
export function plainTable(headers: string[], rows: Cell[][]): string {
  const cells = [headers, ...rows.map((r) => r.map(String))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const numeric = headers.map((_, i) => rows.every((r) => typeof r[i] === 'number' || /^[\d.,–x×/ -]+$/.test(String(r[i]))));
  const line = (r: string[]) => r.map((c, i) => (numeric[i] && i > 0 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd();
  return [line(cells[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].map((l) => `  ${l}`).join('\n');
}

/** The target checks whose name starts with `prefix`, as `=> name: value (target ...: PASS)` lines. */
export function targetLines(targets: readonly TargetCheck[], prefix: string): string[] {
  return targets.filter((t) => t.name.startsWith(prefix)).map((t) => `  => ${t.name}: ${t.value}${t.unit ? ` ${t.unit}` : ''} (${targetMark(t)})`);
}

/** The closing table of every target, its figure and PASS or MISS. */
export function targetsTable(targets: readonly TargetCheck[]): string {
  const unit = (t: TargetCheck) => (t.unit ? ` ${t.unit}` : '');
  return plainTable(
    ['figure', 'value', 'target', 'result'],
    targets.map((t) => [t.name, `${t.value}${unit(t)}`, `${t.comparison} ${t.threshold}${unit(t)}`, t.pass ? 'PASS' : 'MISS']),
  );
}

/** A section run alone (`npx tsx tools/bench/<file>.ts`): prints its report, or its error and exits 1. */
export function runAlone<T>(name: string, bench: (log: (line: string) => void) => Promise<T>, report: (r: T) => string[]): void {
  const log = (line: string) => process.stdout.write(`${line}\n`);
  bench(log)
    .then((r) => log(['', ...report(r)].join('\n')))
    .catch((err: unknown) => {
      process.stderr.write(`${name}: ${(err as Error).stack ?? String(err)}\n`);
      process.exit(1);
    });
}
