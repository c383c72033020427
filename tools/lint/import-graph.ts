/**
 * The import graph of our TypeScript (libs, services, apps, tools, e2e): relative imports and
 * `@wordcut/<lib>` (its src/index), type-only imports included, and its cycles (strongly connected
 * components of more than one module, or a module importing itself).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(__dirname, '../..');
const TOP = ['libs', 'services', 'apps', 'tools', 'e2e'];
const SKIP = new Set(['node_modules', 'dist', '.data', 'test-results']);

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

function resolveModule(from: string, spec: string): string | null {
  let base: string;
  const lib = /^@wordcut\/([a-z-]+)(\/.*)?$/.exec(spec);
  if (lib) base = join(ROOT, 'libs', lib[1]!, lib[2] ? lib[2].slice(1) : 'src/index');
  else if (spec.startsWith('.')) base = resolve(dirname(from), spec);
  else return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    if (existsSync(candidate) && statSync(candidate).isFile() && /\.tsx?$/.test(candidate)) return candidate;
  }
  return null;
}

/** module (repository-relative path) -> the modules it imports */
export function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const top of TOP) {
    if (!existsSync(join(ROOT, top))) continue;
    for (const file of sourceFiles(join(ROOT, top))) {
      const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
      const deps = info.importedFiles.map((f) => resolveModule(file, f.fileName)).filter((d): d is string => d !== null);
      graph.set(relative(ROOT, file), [...new Set(deps.map((d) => relative(ROOT, d)))]);
    }
  }
  return graph;
}

/** The cycles of a graph: its strongly connected components of more than one node, and self-imports (Tarjan). */
export function importCycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      for (let w = stack.pop()!; ; w = stack.pop()!) {
        on.delete(w);
        scc.push(w);
        if (w === v) break;
      }
      if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return cycles;
}
