/**
 * Section 7: the transcript editor in a real browser, on a 30,000-word transcript served by the
 * real gateway, against the obvious alternative of a page that is not virtualised.
 *
 * Set-up (editor-ui-stack.ts): the gateway alone on a throw-away database with one completed video
 * and its transcript; the BUILT shell, editor remote and publish remote served by
 * tools/scripts/serve-static.js (the shell with `--spa --proxy /api=<gateway>` and remotes.json
 * pointed at the remotes by REMOTE_<NAME>_URL); Chromium through Playwright, headless, 1280x800,
 * with the e2e tests' flags, one browser context whose pages hold the video owner's gateway
 * session before they load (pageIdentityScript), so the editor's calls carry it.
 *
 * Measured in the page (editor-ui-page.ts PAGE_PROBE_SCRIPT), with trusted input from Playwright's
 * mouse and keyboard (editor-ui-drive.ts):
 * - time to first rendered words: navigation start -> the first frame painted with a word, over
 *   `loads` page loads (a new page each; the first has a cold cache), with when each step of the
 *   load happened (Resource Timing);
 * - latency from a click or key press (event.timeStamp) to the next frame, for select, cut-mark,
 *   mute-mark, undo (after word edits and Ctrl+X cuts, saved to the gateway) and typing in the search
 *   box;
 * - last keystroke -> the search counter painted with the final result, beyond the 300 ms debounce;
 * - Long Animation Frames per phase, to say where slow samples' time went.
 * Alternative, same run and browser: the same words as static HTML with the editor's markup and
 * CSS, one span per word (plainTranscriptPage): first rendered words, all words, and selecting a word.
 * Checked: the editor's pending marks are the ones the run made, and after as many undos as edits
 * the gateway's transcript has the original words.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright';
import type { Transcript, Word } from '@wordcut/contracts';
import { checkInterrupted, median, onCleanup, round } from './common';
import { loadPhases, measureMarks, measurePlainSelect, measureSearch, measureUndo, medianPhases, openPage, type LoadPhases } from './editor-ui-drive';
import {
  PAGE_PROBE_SCRIPT,
  firstDifference,
  longFramesIn,
  plainTranscriptPage,
  summarizePaintSamples,
  type LatencyFigures,
  type LongFrameFigures,
} from './editor-ui-page';
import { builtApps, pageIdentityScript, serveStatic, startEditorStack, type EditorStack } from './editor-ui-stack';
import { seededRandom } from './transcript-data';

/** As e2e/playwright.config.ts launches Chromium. */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
export const VIEWPORT = { width: 1280, height: 800 };
/** The list's height limit (apps/editor TranscriptList LIST_MAX_HEIGHT_PX), for the alternative's scroll box. */
const LIST_MAX_HEIGHT_PX = 800;
/** The editor persists its history 400 ms after the last save: the search phase starts after that. */
const EDITOR_QUIET_MS = 1000;

export type InteractionId = 'select' | 'cut-mark' | 'mute-mark' | 'undo' | 'search-typing';

export const INTERACTION_LABELS: Record<InteractionId, string> = {
  select: 'select: click a word',
  'cut-mark': 'cut-mark: Delete on a selected word',
  'mute-mark': 'mute-mark: 1 / 2 on a selected word',
  undo: 'undo: Ctrl+Z after word edits and Ctrl+X cuts',
  'search-typing': "typing in 'Search transcript'",
};

export interface LoadFigures {
  /** navigation start -> first frame painted with a word, per load, in order (the first is a cold cache) */
  runsMs: number[];
  medianMs: number;
  maxMs: number;
}

export interface EditorUiResults {
  words: number;
  paragraphs: number;
  durationSec: number;
  browser: string;
  viewport: string;
  loads: number;
  samplesPerInteraction: number;
  load: {
    /** `phases`: the median of each step over the loads */
    ours: LoadFigures & { phases: LoadPhases };
    /** the static page; `allWordsMedianMs`: to the frame painted after DOMContentLoaded (every word in the page) */
    plain: LoadFigures & { allWordsMedianMs: number };
  };
  interactions: Array<LatencyFigures & { id: InteractionId; label: string }>;
  /** selecting a word (click -> next frame) on the static page */
  plainSelect: LatencyFigures;
  /** last keystroke -> search counter painted with the final result, minus the debounce */
  searchResult: { queries: number; afterDebounceMs: number[]; medianMs: number; maxMs: number };
  /** Long Animation Frames (>= 50 ms) on the editor page per phase, and on the static page */
  longFrames: LongFrameFigures[];
  checks: {
    /** the editor's pending cuts and mutes hold exactly the words the run marked */
    marksMatch: boolean;
    edits: number;
    undos: number;
    /** after every edit was undone, where the gateway's transcript differs from the original (null: nowhere) */
    serverDifference: string | null;
    serverVersion: number;
    /** the editor's saves (PATCH /api/transcripts/{id}) and those that failed, as 'status: message' */
    saves: number;
    failedSaves: string[];
    pageErrors: string[];
  };
  setupSec: number;
  sectionSec: number;
}

export interface EditorUiOptions {
  s3Endpoint: string;
  words: number;
  /** samples per interaction (select gets twice as many: each cut-mark and mute-mark follows one) */
  samples: number;
  /** page loads per path */
  loads: number;
  log: (line: string) => void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The gateway's transcript, once the page's saves were all answered (`drained`, at most 15 s), then
 * once it has the original words again (text, timing, confidence) or once its version stopped
 * moving for 1 s, with the first difference.
 */
async function serverTranscript(
  stack: EditorStack,
  original: readonly Word[],
  drained: { answered: () => number; expected: number },
): Promise<{ words: Word[]; version: number; difference: string | null }> {
  // the editor sends one save per edit and per undo, one after another: wait until all of them were
  // answered (up to 15 s), so that a save still queued in the page is not taken for a lost one
  for (const until = Date.now() + 15_000; drained.answered() < drained.expected && Date.now() < until; ) await sleep(100);
  let last = { version: -1, at: Date.now() };
  for (;;) {
    const res = await fetch(`${stack.gatewayUrl}/api/videos/${stack.videoId}/transcript`, { headers: stack.auth });
    if (!res.ok) throw new Error(`GET /api/videos/{id}/transcript answered ${res.status}: ${answerMessage(await res.text())}`);
    const t = (await res.json()) as Transcript;
    const difference = firstDifference(original, t.words);
    if (t.version !== last.version) last = { version: t.version, at: Date.now() };
    if (difference === null || Date.now() - last.at > 1000) return { words: t.words, version: t.version, difference };
    await sleep(200);
  }
}

/** An error answer's message (the gateway's ErrorBody), else its start. */
function answerMessage(body: string): string {
  try {
    return (JSON.parse(body) as { message?: string }).message ?? body.slice(0, 200);
  } catch {
    return body.slice(0, 200);
  }
}

const loadFigures = (runsMs: number[]): LoadFigures => ({ runsMs: runsMs.map((ms) => round(ms)), medianMs: round(median(runsMs)), maxMs: round(Math.max(...runsMs)) });

/** The built remotes on their own ports, and the shell in front of them and of the gateway; returns the shell's URL. */
export async function serveApps(dirs: ReturnType<typeof builtApps>['dirs'], gatewayUrl: string): Promise<{ shellUrl: string; editorUrl: string }> {
  const remote = (dir: string) => serveStatic(dir, ['--cors'], {}, '/mf-manifest.json');
  const editorUrl = await remote(dirs.editor);
  const publishUrl = await remote(dirs.publish);
  // the KeyClips panel and analytics are not opened here: their remotes point at a closed port
  const shellUrl = await serveStatic(
    dirs.shell,
    ['--spa', '--proxy', `/api=${gatewayUrl}`],
    {
      REMOTE_EDITOR_URL: `${editorUrl}/mf-manifest.json`,
      REMOTE_PUBLISH_URL: `${publishUrl}/mf-manifest.json`,
      REMOTE_KEYCLIPS_URL: 'http://127.0.0.1:9/mf-manifest.json',
      REMOTE_ANALYTICS_URL: 'http://127.0.0.1:9/mf-manifest.json',
    },
    '/remotes.json',
  );
  return { shellUrl, editorUrl };
}

interface Target {
  context: BrowserContext;
  pageUrl: string;
  editorUrl: string;
  stack: EditorStack;
  pageErrors: string[];
}

/**
 * Time to first rendered words: the editor page and the static page (written and served from the
 * first editor load's CSS and list width), `loads` times each, interleaved.
 */
async function measureLoads(t: Target, loads: number): Promise<{ load: EditorUiResults['load']; plainUrl: string }> {
  const { words, paragraphs } = t.stack.transcript;
  const first = await openPage(t.context, t.pageUrl, t.pageErrors);
  const chip = await first.page.getByTestId('chip-words').textContent();
  if (!chip?.replace(/\D/g, '').startsWith(String(words.length))) throw new Error(`the editor shows "${chip}", not ${words.length} words`);
  const plainDir = mkdtempSync(join(tmpdir(), 'wordcut-bench-ui-'));
  onCleanup(`directory ${plainDir}`, () => rmSync(plainDir, { recursive: true, force: true }));
  const css = await first.probe.call<string>('css()');
  const widthPx = await first.probe.call<number>('listWidth()');
  writeFileSync(join(plainDir, 'index.html'), plainTranscriptPage({ words, paragraphs, css, widthPx, maxHeightPx: LIST_MAX_HEIGHT_PX }));
  const plainUrl = `${await serveStatic(plainDir, [], {}, '/')}/`;
  const oursMs = [first.firstWordsMs];
  const steps = [await loadPhases(first.page, t.editorUrl, t.stack.videoId, first.firstWordsMs)];
  await first.page.close();
  const plainMs: number[] = [];
  const plainAllMs: number[] = [];
  const loadPlain = async () => {
    const p = await openPage(t.context, plainUrl, t.pageErrors);
    plainMs.push(p.firstWordsMs);
    const handle = await p.page.waitForFunction('window.__wcBench.domReadyPaint', undefined, { timeout: 30_000, polling: 50 });
    plainAllMs.push((await handle.jsonValue()) as number);
    await p.page.close();
  };
  const loadOurs = async () => {
    const p = await openPage(t.context, t.pageUrl, t.pageErrors);
    oursMs.push(p.firstWordsMs);
    steps.push(await loadPhases(p.page, t.editorUrl, t.stack.videoId, p.firstWordsMs));
    await p.page.close();
  };
  await loadPlain();
  for (let i = 1; i < loads; i++) {
    for (const load of i % 2 === 0 ? [loadOurs, loadPlain] : [loadPlain, loadOurs]) await load();
  }
  return {
    load: { ours: { ...loadFigures(oursMs), phases: medianPhases(steps) }, plain: { ...loadFigures(plainMs), allWordsMedianMs: round(median(plainAllMs)) } },
    plainUrl,
  };
}

/**
 * The interactions on one editor page: select with cut-mark and mute-mark, edits and undo, then
 * (once the editor is quiet) typing in the search box; with the page's long frames per phase,
 * the saves it sent, and whether the gateway ends with the original words.
 */
async function measureEditor(t: Target, samples: number, rng: () => number, log: (line: string) => void) {
  const { page, probe } = await openPage(t.context, t.pageUrl, t.pageErrors);
  let saves = 0;
  const failedSaves: string[] = [];
  page.on('response', (r) => {
    if (r.request().method() !== 'PATCH' || !r.url().includes('/api/transcripts/')) return;
    saves++;
    if (!r.ok()) void r.text().then((body) => failedSaves.push(`${r.status()}: ${answerMessage(body)}`), () => failedSaves.push(String(r.status())));
  });
  // a save that got no answer at all (the connection closed under it) failed too
  page.on('requestfailed', (r) => {
    if (r.method() !== 'PATCH' || !r.url().includes('/api/transcripts/')) return;
    saves++;
    failedSaves.push(`no answer: ${r.failure()?.errorText ?? 'request failed'} (${r.postData()?.length ?? 0} bytes sent)`);
  });
  await probe.settle(500);
  const bounds: Array<[string, number]> = [['load', 0], ['select and mark', await probe.now()]];
  const marks = await measureMarks(probe, rng, samples, t.stack.videoId);
  if (!marks.marksMatch) log('  WARNING: the editor does not hold exactly the cut and mute marks the run made');
  bounds.push(['edits and undo', await probe.now()]);
  const { undo, edits } = await measureUndo(probe, rng, samples);
  const server = await serverTranscript(t.stack, t.stack.transcript.words, { answered: () => saves, expected: edits + undo.length });
  if (server.difference) log(`  WARNING: after as many undos as edits, the gateway's transcript is not the original: ${server.difference}`);
  if (failedSaves.length > 0) log(`  WARNING: ${failedSaves.length} of ${saves} saves failed, first: ${failedSaves[0]}`);
  await sleep(EDITOR_QUIET_MS);
  bounds.push(['search', await probe.now()]);
  // after a failed save the editor rolls back to what the gateway holds: search that
  const { typing, afterDebounceMs } = await measureSearch(probe, server.words, samples);
  bounds.push(['end', await probe.now()]);
  const frames = await probe.longFrames();
  await page.close();
  const interactions = (
    [
      ['select', marks.select],
      ['cut-mark', marks.cutMark],
      ['mute-mark', marks.muteMark],
      ['undo', undo],
      ['search-typing', typing],
    ] as const
  ).map(([id, s]) => ({ id, label: INTERACTION_LABELS[id], ...summarizePaintSamples(s) }));
  return {
    interactions,
    searchResult: { queries: afterDebounceMs.length, afterDebounceMs, medianMs: round(median(afterDebounceMs)), maxMs: round(Math.max(...afterDebounceMs)) },
    longFrames: bounds.slice(0, -1).map(([phase, from], k) => longFramesIn(frames, `editor: ${phase}`, from, bounds[k + 1]![1])),
    checks: { marksMatch: marks.marksMatch, edits, undos: undo.length, serverDifference: server.difference, serverVersion: server.version, saves, failedSaves },
  };
}

export async function benchEditorUi(o: EditorUiOptions): Promise<EditorUiResults> {
  const t0 = performance.now();
  const { dirs, staleWarning } = builtApps();
  if (staleWarning) o.log(`  WARNING: ${staleWarning}`);
  const stack = await startEditorStack({ s3Endpoint: o.s3Endpoint, words: o.words });
  const { shellUrl, editorUrl } = await serveApps(dirs, stack.gatewayUrl);
  checkInterrupted();
  const browser = await chromium.launch({ executablePath: process.env['CHROMIUM_PATH'] || '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
  onCleanup('Chromium', () => browser.close());
  const context = await browser.newContext({ viewport: VIEWPORT });
  await context.addInitScript({ content: PAGE_PROBE_SCRIPT });
  // the page works as the video's owner (the upload form's session), as after an upload
  await context.addInitScript({ content: pageIdentityScript(stack.session) });
  const browserName = `Chromium ${browser.version()}`;
  const setupSec = round((performance.now() - t0) / 1000, 1);
  o.log(`  gateway, apps and ${browserName} up in ${setupSec} s (${o.words} words, ${stack.transcript.paragraphs.length} paragraphs)`);

  const target: Target = { context, pageUrl: `${shellUrl}/editor/${stack.videoId}`, editorUrl, stack, pageErrors: [] };
  const { load, plainUrl } = await measureLoads(target, o.loads);
  o.log(`  first rendered words: ours median ${load.ours.medianMs} ms (${load.ours.runsMs.map(Math.round).join(', ')}), static page ${load.plain.medianMs} ms, all its words ${load.plain.allWordsMedianMs} ms`);

  const rng = seededRandom(7);
  const editor = await measureEditor(target, o.samples, rng, o.log);
  for (const i of editor.interactions) o.log(`  ${i.label}: p50 ${i.p50Ms} ms, p95 ${i.p95Ms} ms, max ${i.maxMs} ms (${i.samples} samples)`);

  const plain = await openPage(context, plainUrl, target.pageErrors);
  await plain.probe.settle(500);
  const plainSelect = summarizePaintSamples(await measurePlainSelect(plain.probe, rng, o.samples));
  const plainFrames = longFramesIn(await plain.probe.longFrames(), 'static page: load and select', 0, Infinity);
  await plain.page.close();
  await browser.close();

  return {
    words: stack.transcript.words.length,
    paragraphs: stack.transcript.paragraphs.length,
    durationSec: stack.durationSec,
    browser: browserName,
    viewport: `${VIEWPORT.width}x${VIEWPORT.height}`,
    loads: o.loads,
    samplesPerInteraction: o.samples,
    load,
    interactions: editor.interactions,
    plainSelect,
    searchResult: editor.searchResult,
    longFrames: [...editor.longFrames, plainFrames],
    checks: { ...editor.checks, pageErrors: target.pageErrors },
    setupSec,
    sectionSec: round((performance.now() - t0) / 1000, 1),
  };
}
