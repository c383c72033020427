/**
 * Section 7's driving of the browser: a page's probe (window.__wcBench, PAGE_PROBE_SCRIPT), page
 * loads, and each measured phase on the editor and on the static page. Input goes through
 * Playwright's mouse and keyboard, so the page gets trusted events as from a person.
 */
import type { BrowserContext, Page } from 'playwright';
import type { Word } from '@wordcut/contracts';
import { findMatches, matchCounter, SEARCH_DEBOUNCE_MS } from '@wordcut/editor-core';
import { checkInterrupted, median, round } from './common';
import type { LongFrame, PaintSample } from './editor-ui-page';

/** Between samples: two frames, then this long, so one sample's work never overlaps the next. */
const SETTLE_MS = 50;
/** A single click on a word seeks this long after it (TranscriptList CLICK_SEEK_DELAY_MS): the next sample waits for it. */
const CLICK_SEEK_DELAY_MS = 300;
/** Typed into the search box, one keystroke per sample: words of the synthetic talk's vocabulary. */
const SEARCH_QUERIES = ['timeline', 'transcript', 'question', 'different', 'important', 'recording', 'listen', 'release'];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

export interface WordAt {
  index: number;
  x: number;
  y: number;
}

/** The page's `window.__wcBench`, called by expression. */
export class Probe {
  constructor(readonly page: Page) {}

  call<T>(expression: string): Promise<T> {
    return this.page.evaluate(`window.__wcBench.${expression}`) as Promise<T>;
  }

  now(): Promise<number> {
    return this.page.evaluate('performance.now()') as Promise<number>;
  }

  settle(ms = SETTLE_MS): Promise<void> {
    return this.call(`settle(${ms})`);
  }

  /** One trusted input, timed from its event to the next paint; then the page settles. */
  async timed(type: 'click' | 'keydown', act: () => Promise<void>): Promise<PaintSample> {
    await this.call(`arm(${JSON.stringify(type)})`);
    await act();
    const sample = await this.call<PaintSample>('result()');
    await this.settle();
    return sample;
  }

  /** A visible, uncovered word at random; with `unmarked`, one without a cut or mute mark. */
  async pickWord(rng: () => number, unmarked = false): Promise<WordAt> {
    for (let attempt = 0; attempt < 20; attempt++) {
      const word = await this.call<WordAt | null>(`pickWord(${JSON.stringify(Array.from({ length: 60 }, rng))})`);
      if (!word) continue;
      if (unmarked && (await this.page.evaluate(`/--(cut|mute)/.test(document.querySelector('[data-word-index="${word.index}"]').className)`))) continue;
      return word;
    }
    throw new Error('found no visible word to click in the transcript list');
  }

  /** Jumps the list to a random place (as dragging its scrollbar) and waits for its rows to render. */
  async scrollSomewhere(rng: () => number): Promise<void> {
    await this.call(`scrollList(${rng()})`);
    await this.settle(250);
  }

  /** Resolves with the paint time (page clock) once the element shows `text`. */
  waitText(selector: string, text: string, timeoutMs = 5000): Promise<number> {
    return this.call(`waitText(${JSON.stringify(selector)}, ${JSON.stringify(text)}, ${timeoutMs})`);
  }

  longFrames(): Promise<LongFrame[]> {
    return this.call<LongFrame[] | null>('longFrames').then((f) => f ?? []);
  }
}

/** Opens a page and waits until it has painted words; `firstWordsMs` is since navigation start. */
export async function openPage(context: BrowserContext, url: string, errors: string[]): Promise<{ page: Page; probe: Probe; firstWordsMs: number }> {
  checkInterrupted();
  const page = await context.newPage();
  page.on('pageerror', (err) => errors.push(`${url}: ${err.message}`));
  await page.goto(url, { waitUntil: 'commit' });
  const handle = await page.waitForFunction('window.__wcBench && window.__wcBench.firstWordsPaint', undefined, { timeout: 30_000, polling: 50 });
  return { page, probe: new Probe(page), firstWordsMs: (await handle.jsonValue()) as number };
}

/** When a load of the editor page reached each step, ms since navigation start (Navigation and Resource Timing). */
export interface LoadPhases {
  /** the shell's HTML parsed (DOMContentLoaded) */
  shellParsedMs: number;
  /** the editor remote's first file requested, and its last file received */
  editorRequestedMs: number;
  editorLoadedMs: number;
  /** GET /api/videos/{id} */
  videoRequestedMs: number;
  videoAnsweredMs: number;
  /** GET /api/videos/{id}/transcript */
  transcriptRequestedMs: number;
  transcriptAnsweredMs: number;
  transcriptMiB: number;
  /** the first frame painted with a word */
  firstWordsMs: number;
}

interface ResourceEntry {
  name: string;
  startTime: number;
  responseEnd: number;
  encodedBodySize: number;
}

export async function loadPhases(page: Page, editorUrl: string, videoId: string, firstWordsMs: number): Promise<LoadPhases> {
  const { shellParsedMs, resources } = (await page.evaluate(`({
    shellParsedMs: performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd,
    resources: performance.getEntriesByType('resource').map((e) => ({ name: e.name, startTime: e.startTime, responseEnd: e.responseEnd, encodedBodySize: e.encodedBodySize })),
  })`)) as { shellParsedMs: number; resources: ResourceEntry[] };
  const one = (path: string): ResourceEntry => {
    const entry = resources.find((e) => new URL(e.name).pathname === path);
    if (!entry) throw new Error(`the page did not request ${path}`);
    return entry;
  };
  const editor = resources.filter((e) => e.name.startsWith(editorUrl));
  if (editor.length === 0) throw new Error(`the page loaded nothing from the editor remote at ${editorUrl}`);
  const video = one(`/api/videos/${videoId}`);
  const transcript = one(`/api/videos/${videoId}/transcript`);
  return {
    shellParsedMs,
    editorRequestedMs: Math.min(...editor.map((e) => e.startTime)),
    editorLoadedMs: Math.max(...editor.map((e) => e.responseEnd)),
    videoRequestedMs: video.startTime,
    videoAnsweredMs: video.responseEnd,
    transcriptRequestedMs: transcript.startTime,
    transcriptAnsweredMs: transcript.responseEnd,
    transcriptMiB: transcript.encodedBodySize / 1024 ** 2,
    firstWordsMs,
  };
}

/** Each step's median over the loads. */
export function medianPhases(loads: readonly LoadPhases[]): LoadPhases {
  const keys = Object.keys(loads[0]!) as Array<keyof LoadPhases>;
  return Object.fromEntries(keys.map((k) => [k, round(median(loads.map((l) => l[k])), k === 'transcriptMiB' ? 2 : 1)])) as unknown as LoadPhases;
}

interface Marks {
  cuts: Set<number>;
  mutes: Map<number, 'silence' | 'whisper'>;
}

/** The editor's pending marks, from what it keeps in localStorage for the video. */
async function storedMarks(page: Page, videoId: string): Promise<Marks> {
  const raw = (await page.evaluate(`localStorage.getItem(${JSON.stringify(`wordcut_editor_${videoId}`)})`)) as string | null;
  const data = raw ? (JSON.parse(raw) as { pendingCuts: { wordIndices: number[] }[]; pendingMutes: { wordIndices: number[]; level: 'silence' | 'whisper' }[] }) : null;
  const mutes = new Map<number, 'silence' | 'whisper'>();
  for (const m of data?.pendingMutes ?? []) for (const i of m.wordIndices) mutes.set(i, m.level);
  return { cuts: new Set((data?.pendingCuts ?? []).flatMap((c) => c.wordIndices)), mutes };
}

const sameMarks = (a: Marks, b: Marks): boolean =>
  a.cuts.size === b.cuts.size && [...a.cuts].every((i) => b.cuts.has(i)) && a.mutes.size === b.mutes.size && [...a.mutes].every(([i, l]) => b.mutes.get(i) === l);

/**
 * `samples` rounds of: a click on an unmarked word (select), then Delete (cut-mark) on even rounds
 * or 1 / 2 (mute-mark, silence / whisper) on odd ones; before every other click the list jumps
 * somewhere else. Then checks that the editor holds exactly those marks.
 */
export async function measureMarks(probe: Probe, rng: () => number, samples: number, videoId: string) {
  const select: PaintSample[] = [];
  const cutMark: PaintSample[] = [];
  const muteMark: PaintSample[] = [];
  const expected: Marks = { cuts: new Set(), mutes: new Map() };
  for (let k = 0; k < 2 * samples; k++) {
    checkInterrupted();
    if (k % 2 === 1) await probe.scrollSomewhere(rng);
    const word = await probe.pickWord(rng, true);
    const clickedAt = performance.now();
    select.push(await probe.timed('click', () => probe.page.mouse.click(word.x, word.y)));
    if (k % 2 === 0) {
      cutMark.push(await probe.timed('keydown', () => probe.page.keyboard.press('Delete')));
      expected.cuts.add(word.index);
    } else {
      const level = k % 4 === 1 ? 'silence' : 'whisper';
      muteMark.push(await probe.timed('keydown', () => probe.page.keyboard.press(level === 'silence' ? '1' : '2')));
      expected.mutes.set(word.index, level);
    }
    // the click's delayed seek runs before the next sample, not during it
    await sleep(clickedAt + CLICK_SEEK_DELAY_MS + 30 - performance.now());
    await probe.settle();
  }
  await sleep(600); // the store keeps its marks 400 ms after the last change
  return { select, cutMark, muteMark, marksMatch: sameMarks(await storedMarks(probe.page, videoId), expected) };
}

/**
 * Two rounds of: ceil(samples / 2) edits (half word edits, double click -> 'Edit Word' -> Enter;
 * half Ctrl+X on a selected word), each saved to the gateway by the editor, then as many Ctrl+Z,
 * timed. The undo counter must follow every step.
 */
export async function measureUndo(probe: Probe, rng: () => number, samples: number): Promise<{ undo: PaintSample[]; edits: number }> {
  const { page } = probe;
  const undo: PaintSample[] = [];
  const perRound = Math.ceil(samples / 2);
  const wordEdits = Math.ceil(perRound / 2);
  const undoCount = '[data-testid="undo-count"]';
  let depth = 0;
  let edits = 0;
  for (let r = 0; r < 2; r++) {
    for (let e = 0; e < perRound; e++) {
      checkInterrupted();
      if (e % 4 === 0) await probe.scrollSomewhere(rng);
      let word = await probe.pickWord(rng, true);
      if (e < wordEdits) {
        // without a selection, the first click would show the selection toolbar and move the words
        // under the second: select a word first, then double-click one where it now is
        if ((await page.getByTestId('selection-toolbar').count()) === 0) {
          await page.mouse.click(word.x, word.y);
          await sleep(CLICK_SEEK_DELAY_MS + 30);
          word = await probe.pickWord(rng, true);
        }
        await page.mouse.dblclick(word.x, word.y);
        const input = page.getByTestId('word-edit').getByRole('textbox');
        await input.fill(`edited${edits}`, { timeout: 5000 });
        await input.press('Enter');
        await page.getByTestId('word-edit').waitFor({ state: 'detached', timeout: 5000 });
      } else {
        const clickedAt = performance.now();
        await page.mouse.click(word.x, word.y);
        await page.keyboard.press('Control+X');
        await sleep(clickedAt + CLICK_SEEK_DELAY_MS + 30 - performance.now());
      }
      edits++;
      await probe.waitText(undoCount, String(++depth));
      await probe.settle();
    }
    for (let u = 0; u < perRound; u++) {
      checkInterrupted();
      await probe.call('focusTranscript()');
      undo.push(await probe.timed('keydown', () => page.keyboard.press('Control+Z')));
      await probe.waitText(undoCount, String(--depth));
    }
  }
  return { undo, edits };
}

/**
 * Types whole queries into 'Search transcript', one timed keystroke each, until `samples`
 * keystrokes; after each query, times its last keystroke -> the counter painted with the final
 * result ('1 of n', n from findMatches over `words`), minus the debounce; then clears the box.
 */
export async function measureSearch(probe: Probe, words: readonly Pick<Word, 'text'>[], samples: number): Promise<{ typing: PaintSample[]; afterDebounceMs: number[] }> {
  const { page } = probe;
  const typing: PaintSample[] = [];
  const afterDebounceMs: number[] = [];
  const count = '[data-testid="search-count"]';
  await page.getByLabel('Search transcript').click();
  for (const query of SEARCH_QUERIES) {
    if (typing.length >= samples) break;
    checkInterrupted();
    for (const ch of query) typing.push(await probe.timed('keydown', () => page.keyboard.press(ch)));
    const shownAt = await probe.waitText(count, matchCounter(0, findMatches(words, query).length));
    afterDebounceMs.push(round(shownAt - typing[typing.length - 1]!.ts - SEARCH_DEBOUNCE_MS));
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    await probe.waitText(count, matchCounter(0, 0));
    await probe.settle(100);
  }
  return { typing, afterDebounceMs };
}

/** The alternative: `samples` clicks on words of the static page (the list jumps before every other), each checked selected. */
export async function measurePlainSelect(probe: Probe, rng: () => number, samples: number): Promise<PaintSample[]> {
  const select: PaintSample[] = [];
  for (let k = 0; k < samples; k++) {
    checkInterrupted();
    if (k % 2 === 1) await probe.scrollSomewhere(rng);
    const word = await probe.pickWord(rng);
    select.push(await probe.timed('click', () => probe.page.mouse.click(word.x, word.y)));
    const selected = await probe.page.evaluate(`document.querySelector('[data-word-index="${word.index}"]').classList.contains('wc-word--selected')`);
    if (!selected) throw new Error(`the static page did not select word ${word.index}`);
  }
  return select;
}
