/**
 * Section 14: the editor's silence recommendation panel listing 2,000 pauses, in a real browser,
 * against the same panel with its list not virtualised.
 *
 * Set-up: the page (silence-ui-app.ts: SilencePanel open in the providers it reads, the analysis
 * in the page as JSON) is bundled by Rspack with the editor build's own resolve aliases and SWC
 * rule (libs/ui/build/rspack.app.js), in production mode, twice: as it is (ours, SilenceList with
 * TanStack Virtual) and with the panel's SilenceList swapped for silence-ui-plain-list.ts (every
 * row in the document, the same SilenceRow). Both pages carry the shell's, the editor's and the
 * silence panel's CSS, are written to a throw-away directory and served by serve-static.js, as
 * section 8 serves its alternative; Chromium through Playwright, headless, 1280x800, section 7's flags.
 *
 * Per path (silence-ui-page.ts SILENCE_PROBE_SCRIPT records in the page):
 * - first render: `loads` page loads, the paths interleaved, from the render call (and from
 *   navigation start) to the first frame done with rows in it, and the rows in the document;
 * - toggle: `samples` clicks on a visible row's remove checkbox (trusted, Playwright's mouse; the
 *   list jumps to a random place before every other one), from the click's timeStamp to the row's
 *   data-decision changing and to the next frame after that; afterwards each toggled row and the
 *   Process button must show the store's decisions. Target: p95 (click -> frame) < 50 ms;
 * - scroll: the list's scrollTop moved every frame from the top to the bottom in `scrollSeconds`,
 *   as a scrollbar dragged at a steady speed; frame intervals, main-thread time per frame and Long
 *   Animation Frames. Target: p95 frame interval < 33 ms (no more than one 60 Hz frame missed).
 *
 * `npx tsx tools/bench/silence-ui.ts` runs this section alone (no S3, Postgres or NATS);
 * BENCH_SILENCEUI_SAMPLES (40), BENCH_SILENCEUI_LOADS (5), BENCH_SILENCEUI_SCROLL_SECONDS (8).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rspack, type Configuration, type RuleSetRule } from '@rspack/core';
import { chromium, type BrowserContext, type Page } from 'playwright';
import { EDITOR_CSS } from '../../apps/editor/src/shared/styles';
import { SILENCE_CSS } from '../../apps/editor/src/silence/styles';
import { ROOT, checkInterrupted, cleanupAll, median, onCleanup, round } from './common';
import { CHROMIUM_ARGS, VIEWPORT } from './editor-ui';
import { serveStatic } from './editor-ui-stack';
import {
  PLAIN_LIST_CSS,
  SILENCE_PROBE_SCRIPT,
  SILENCE_UI_PAUSES,
  silenceAnalysis,
  silencePanelPage,
  silencePauses,
  summarizeScroll,
  summarizeToggles,
  type ScrollFigures,
  type ScrollRun,
  type ToggleFigures,
  type ToggleSample,
} from './silence-ui-page';

export type SilenceUiPathId = 'ours' | 'plain';

export const SILENCE_UI_LABELS: Record<SilenceUiPathId, string> = {
  ours: 'ours: SilenceList, TanStack Virtual (rows in view + 8 overscan)',
  plain: 'alternative: the same panel and rows, every row in the document',
};

export interface SilenceUiPath {
  id: SilenceUiPathId;
  label: string;
  /** render call -> first frame with rows, and navigation start -> that frame, per load */
  renderMs: number[];
  loadMs: number[];
  renderMedianMs: number;
  renderMaxMs: number;
  loadMedianMs: number;
  /** rows and elements in the document after the first render, rows after scrolling to the bottom */
  rowsAtFirstRender: number;
  elements: number;
  rowsAfterScroll: number;
  /** the JS heap in use after the first render (Chromium's performance.memory), MiB */
  heapMiB: number | null;
  toggle: ToggleFigures;
  scroll: ScrollFigures & { scrollEvents: number; scrollHeightPx: number; wallMs: number };
}

export interface SilenceUiResults {
  pauses: number;
  browser: string;
  viewport: string;
  loads: number;
  samples: number;
  scrollSeconds: number;
  bundle: { buildSec: number; oursKiB: number; plainKiB: number };
  paths: SilenceUiPath[];
  checks: { pageErrors: string[] };
  setupSec: number;
  sectionSec: number;
}

export interface SilenceUiOptions {
  samples: number;
  loads: number;
  scrollSeconds: number;
  log: (line: string) => void;
}

const APP_ENTRY = join(ROOT, 'tools', 'bench', 'silence-ui-app.ts');
const PLAIN_LIST = join(ROOT, 'tools', 'bench', 'silence-ui-plain-list.ts');

/** The editor build's resolve aliases and module rules (the remote's config, whose plugins are not used here). */
function editorBuild(): { resolve: Configuration['resolve']; rules: RuleSetRule[] } {
  const load = createRequire(join(ROOT, 'package.json'));
  const { createAppConfig } = load(join(ROOT, 'libs', 'ui', 'build', 'rspack.app.js')) as {
    createAppConfig: (o: { name: string; dir: string; role: 'remote' }) => Configuration;
  };
  const app = createAppConfig({ name: 'editor', dir: join(ROOT, 'apps', 'editor'), role: 'remote' });
  return { resolve: app.resolve, rules: (app.module?.rules ?? []) as RuleSetRule[] };
}

/** Both bundles into `dir` (ours.js, plain.js), production mode. */
export async function bundleSilencePages(dir: string): Promise<void> {
  const { resolve, rules } = editorBuild();
  const config = (id: SilenceUiPathId): Configuration => ({
    name: id,
    mode: 'production',
    context: ROOT,
    target: ['web', 'es2022'],
    devtool: false,
    entry: { [id]: APP_ENTRY },
    output: { path: dir, filename: '[name].js', chunkFilename: `${id}.[contenthash:8].js`, publicPath: '/' },
    resolve,
    module: { rules },
    // the alternative: the panel's own import of its list resolves to the plain one
    plugins: id === 'plain' ? [new rspack.NormalModuleReplacementPlugin(/^\.\/SilenceList$/, PLAIN_LIST)] : [],
    performance: false,
    stats: 'errors-warnings',
    infrastructureLogging: { level: 'error' },
  });
  const compiler = rspack([config('ours'), config('plain')]);
  await new Promise<void>((resolveBuild, reject) =>
    compiler.run((err, stats) => {
      compiler.close(() => undefined);
      if (err) return reject(err);
      if (stats?.hasErrors()) return reject(new Error(`bundling the silence panel failed: ${stats.toString({ all: false, errors: true })}`));
      resolveBuild();
    }),
  );
}

interface LoadFigures {
  renderMs: number;
  loadMs: number;
  rows: number;
  elements: number;
  heapMiB: number | null;
}

async function openPanel(context: BrowserContext, url: string, errors: string[]): Promise<{ page: Page; load: LoadFigures }> {
  checkInterrupted();
  const page = await context.newPage();
  page.on('pageerror', (err) => errors.push(`${url}: ${err.message}`));
  await page.goto(url, { waitUntil: 'commit' });
  await page.waitForFunction('window.__wcSilence && window.__wcSilence.firstRows && window.__wcSilenceApp', undefined, { timeout: 60_000, polling: 50 });
  const load = (await page.evaluate(`(() => {
    const first = window.__wcSilence.firstRows;
    const memory = performance.memory;
    return {
      renderMs: first.frameAt - window.__wcSilenceApp.renderAt,
      loadMs: first.frameAt,
      rows: first.rows,
      elements: document.getElementsByTagName('*').length,
      heapMiB: memory ? memory.usedJSHeapSize / 1048576 : null,
    };
  })()`)) as LoadFigures;
  return { page, load };
}

const settle = (page: Page) => page.evaluate('window.__wcSilence.settle()');

interface Picked {
  id: string;
  decision: string;
  x: number;
  y: number;
}

const pick = (page: Page, r: number): Promise<Picked | null> => page.evaluate(`window.__wcSilence.pick(${r})`) as Promise<Picked | null>;

/** `samples` toggles, checked against the store afterwards. */
async function toggles(page: Page, samples: number, label: string, seed: number): Promise<ToggleSample[]> {
  let state = seed >>> 0;
  const next = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 4294967296);
  const out: ToggleSample[] = [];
  const expected = new Map<string, string>();
  for (let i = 0; i < samples; i++) {
    checkInterrupted();
    let picked: Picked | null = null;
    for (let tries = 0; tries < 5 && picked === null; tries++) {
      if (i % 2 === 0 || tries > 0) {
        await page.evaluate(`window.__wcSilence.jump(${next()})`);
        await settle(page);
      }
      picked = await pick(page, next());
    }
    if (picked === null) throw new Error(`${label}: no remove checkbox in view to click`);
    const decision = picked.decision === 'remove' ? 'keep' : 'remove';
    await page.evaluate(`window.__wcSilence.arm(${JSON.stringify(picked.id)}, ${JSON.stringify(decision)})`);
    await page.mouse.click(picked.x, picked.y);
    out.push((await page.evaluate('window.__wcSilence.result()')) as ToggleSample);
    expected.set(picked.id, decision);
    await settle(page);
  }
  for (const [id, decision] of expected) {
    const held = await page.evaluate(`window.__wcSilenceApp.decision(${JSON.stringify(id)})`);
    if (held !== decision) throw new Error(`${label}: ${id} is ${String(held)} in the store after the toggles, not ${decision}`);
  }
  const marked = (await page.evaluate('window.__wcSilenceApp.marked()')) as number;
  const button = (await page.getByTestId('silence-process').textContent())?.trim();
  if (button !== `Process ${marked} Silence Segments`) throw new Error(`${label}: the process button reads '${button}' with ${marked} pauses marked`);
  return out;
}

async function scrollDown(page: Page, seconds: number, label: string): Promise<SilenceUiPath['scroll'] & { rowsAfter: number }> {
  checkInterrupted();
  await page.evaluate('window.__wcSilence.jump(0)');
  await settle(page);
  await page.waitForTimeout(300);
  const run = (await page.evaluate(`window.__wcSilence.scroll(${seconds * 1000})`)) as ScrollRun;
  if (!run.atBottom) throw new Error(`${label}: the list did not reach its bottom`);
  if (run.scrollEvents === 0) throw new Error(`${label}: the list did not scroll`);
  const rowsAfter = (await page.evaluate('window.__wcSilence.rows()')) as number;
  return { ...summarizeScroll(run), scrollEvents: run.scrollEvents, scrollHeightPx: Math.round(run.scrollHeight), wallMs: round(run.wallMs), rowsAfter };
}

export async function benchSilenceUi(o: SilenceUiOptions): Promise<SilenceUiResults> {
  const t0 = performance.now();
  const dir = mkdtempSync(join(tmpdir(), 'wordcut-bench-silence-ui-'));
  onCleanup(`directory ${dir}`, () => rmSync(dir, { recursive: true, force: true }));
  const analysis = silenceAnalysis(silencePauses(SILENCE_UI_PAUSES));

  const tb = performance.now();
  await bundleSilencePages(dir);
  const buildSec = round((performance.now() - tb) / 1000, 1);
  const kib = (file: string) => round(readFileSync(join(dir, file)).length / 1024);
  const css = [readFileSync(join(ROOT, 'apps', 'shell', 'src', 'styles.css'), 'utf8'), EDITOR_CSS, SILENCE_CSS, PLAIN_LIST_CSS].join('\n');
  for (const id of ['ours', 'plain'] as const) writeFileSync(join(dir, `${id}.html`), silencePanelPage({ title: `Silence panel, ${id}`, css, analysis, script: `/${id}.js` }));
  o.log(`  bundles built in ${buildSec} s (ours ${kib('ours.js')} KiB, plain ${kib('plain.js')} KiB); ${analysis.silences.length} pauses, ${analysis.summary.recommended} recommended for removal`);
  const url = await serveStatic(dir, [], {}, '/ours.html');

  checkInterrupted();
  const browser = await chromium.launch({ executablePath: process.env['CHROMIUM_PATH'] || '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
  onCleanup('Chromium (silence panel)', () => browser.close());
  const context = await browser.newContext({ viewport: VIEWPORT });
  await context.addInitScript({ content: SILENCE_PROBE_SCRIPT });
  const browserName = `Chromium ${browser.version()}`;
  const setupSec = round((performance.now() - t0) / 1000, 1);
  o.log(`  ${browserName} up; set-up ${setupSec} s`);

  const pageErrors: string[] = [];
  const ids = ['ours', 'plain'] as const;
  const loads: Record<SilenceUiPathId, LoadFigures[]> = { ours: [], plain: [] };
  for (let k = 0; k < o.loads; k++) {
    for (const id of k % 2 === 0 ? ids : [...ids].reverse()) {
      const { page, load } = await openPanel(context, `${url}/${id}.html`, pageErrors);
      loads[id].push(load);
      await page.close();
    }
  }

  const paths: SilenceUiPath[] = [];
  for (const id of ids) {
    const label = SILENCE_UI_LABELS[id];
    const { page, load } = await openPanel(context, `${url}/${id}.html`, pageErrors);
    await page.waitForTimeout(500);
    if (id === 'plain' && load.rows !== analysis.silences.length) throw new Error(`${label}: ${load.rows} rows in the document, not ${analysis.silences.length}`);
    const toggle = summarizeToggles(await toggles(page, o.samples, id, 14));
    o.log(`  ${id}: toggle p50 ${toggle.p50Ms} ms, p95 ${toggle.p95Ms} ms, max ${toggle.maxMs} ms (click -> DOM p95 ${toggle.domP95Ms} ms)`);
    const { rowsAfter, ...scroll } = await scrollDown(page, o.scrollSeconds, id);
    o.log(`  ${id}: scroll ${scroll.frames} frames, interval p95 ${scroll.intervalP95Ms} ms, frame time p95 ${scroll.p95Ms} ms, ${scroll.longTasks} long frames, ${scroll.missedFrames} missed`);
    await page.close();
    const renderMs = loads[id].map((l) => round(l.renderMs));
    const loadMs = loads[id].map((l) => round(l.loadMs));
    paths.push({
      id,
      label,
      renderMs,
      loadMs,
      renderMedianMs: round(median(renderMs)),
      renderMaxMs: round(Math.max(...renderMs)),
      loadMedianMs: round(median(loadMs)),
      rowsAtFirstRender: load.rows,
      elements: load.elements,
      rowsAfterScroll: rowsAfter,
      heapMiB: load.heapMiB === null ? null : round(load.heapMiB),
      toggle,
      scroll,
    });
  }
  await browser.close();
  return {
    pauses: analysis.silences.length,
    browser: browserName,
    viewport: `${VIEWPORT.width}x${VIEWPORT.height}`,
    loads: o.loads,
    samples: o.samples,
    scrollSeconds: o.scrollSeconds,
    bundle: { buildSec, oursKiB: kib('ours.js'), plainKiB: kib('plain.js') },
    paths,
    checks: { pageErrors },
    setupSec,
    sectionSec: round((performance.now() - t0) / 1000, 1),
  };
}

export function renderSilenceUi(r: SilenceUiResults, table: (headers: string[], rows: Array<Array<string | number>>) => string): string[] {
  const out: string[] = [];
  out.push(`14. Silence panel with ${r.pauses} pauses in ${r.browser} (headless, ${r.viewport}), built pages (bundled in ${r.bundle.buildSec} s)`);
  out.push(`   first render = the render call -> the first frame done with rows (${r.loads} loads per path); toggle = click on a row's remove checkbox -> the next frame after the row changed (${r.samples} samples)`);
  out.push(
    table(
      ['path', 'rows in DOM', 'elements', 'first render ms (median)', 'max ms', 'load -> rows ms', 'heap MiB', 'toggle p50 ms', 'toggle p95 ms', 'toggle max ms', 'click -> DOM p95 ms'],
      r.paths.map((p) => [p.label, p.rowsAtFirstRender, p.elements, p.renderMedianMs, p.renderMaxMs, p.loadMedianMs, p.heapMiB ?? '-', p.toggle.p50Ms, p.toggle.p95Ms, p.toggle.maxMs, p.toggle.domP95Ms]),
    ),
  );
  out.push(`   scroll = the list's scrollTop moved every frame from top to bottom in ${r.scrollSeconds} s; frame time = the frame's main-thread time (as section 8)`);
  out.push(
    table(
      ['path', 'frames', 'interval p95 ms', 'max interval ms', 'missed', 'intervals >= 50 ms', 'frame time p50 ms', 'p95 ms', 'max ms', 'long frames', 'longest ms', 'content px', 'rows after'],
      r.paths.map((p) => [
        p.label,
        p.scroll.frames,
        p.scroll.intervalP95Ms,
        p.scroll.maxIntervalMs,
        p.scroll.missedFrames,
        p.scroll.longIntervals,
        p.scroll.p50Ms,
        p.scroll.p95Ms,
        p.scroll.maxMs,
        p.scroll.longTasks,
        p.scroll.longTaskMaxMs,
        p.scroll.scrollHeightPx,
        p.rowsAfterScroll,
      ]),
    ),
  );
  out.push('   long frames = Long Animation Frames (>= 50 ms) while scrolling; missed = 60 Hz frames the display did not get');
  if (r.checks.pageErrors.length > 0) out.push(`  => WARNING: ${r.checks.pageErrors.length} uncaught page error(s), first: ${r.checks.pageErrors[0]}`);
  return out;
}

/** Plain-text table, as run.ts prints them. */
function plainTable(headers: string[], rows: Array<Array<string | number>>): string {
  const cells = [headers, ...rows.map((row) => row.map(String))];
  const widths = headers.map((_, i) => Math.max(...cells.map((row) => (row[i] ?? '').length)));
  const line = (row: string[]) => row.map((c, i) => (typeof rows[0]?.[i] === 'number' ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd();
  return [line(cells[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].map((l) => `  ${l}`).join('\n');
}

if (require.main === module) {
  const int = (name: string, dflt: number): number => {
    const n = Number(process.env[name] ?? dflt);
    if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, got ${process.env[name]}`);
    return n;
  };
  const log = (line: string) => process.stdout.write(`${line}\n`);
  benchSilenceUi({ samples: int('BENCH_SILENCEUI_SAMPLES', 40), loads: int('BENCH_SILENCEUI_LOADS', 5), scrollSeconds: int('BENCH_SILENCEUI_SCROLL_SECONDS', 8), log })
    .then((r) => log(['', ...renderSilenceUi(r, plainTable), `   section time ${r.sectionSec} s (set-up ${r.setupSec} s)`].join('\n')))
    .catch((err: unknown) => {
      process.stderr.write(`silence-ui: ${(err as Error).stack ?? String(err)}\n`);
      process.exitCode = 1;
    })
    .finally(() => cleanupAll());
}
