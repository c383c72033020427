/**
 * Section 14's pure parts: the pauses the panel lists, the page that holds them, the recorder
 * every page of the run gets, and how its samples are summarised.
 */
import type { DetectSilenceResponse, PauseType, SilenceSegment } from '@wordcut/contracts';
import { percentile, round } from './common';
import { FRAME_BUDGET_MS, summarizeFrames, type FrameFigures, type FrameSample, type LongTask } from './timeline-page';

/** The pauses the panel lists (a long talk at a low minimum pause). */
export const SILENCE_UI_PAUSES = 2000;
/** The id of the script element that carries the analysis as JSON. */
export const SILENCE_DATA_ID = 'wc-silence-data';
/** What a frame may take before it counts as long (Long Animation Frames' own bound). */
export const LONG_FRAME_MS = 50;

const WORDS = (
  'so the next thing we want to look at is how the timeline keeps every cut in place while you edit the words ' +
  'and that means the transcript and the video always agree about what is kept and what goes when you export it ' +
  'now if you remember from the last part we talked about pauses and why some of them carry meaning for the listener'
).split(' ');

const REASONS: Record<PauseType, string> = {
  technical: 'Dead air well beyond the speaker’s own pauses, with no sentence boundary: likely a recording gap.',
  awkward: 'A pause inside a sentence, longer than this speaker usually takes.',
  dramatic: 'A long pause after a question or before a key point: it may carry meaning.',
  natural: 'A pause at a sentence boundary within the speaker’s usual rhythm.',
};

/** A small seeded generator (mulberry32), so every run lists the same pauses. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const phrase = (next: () => number, words: number): string =>
  Array.from({ length: words }, () => WORDS[Math.floor(next() * WORDS.length)]!).join(' ');

/**
 * `count` pauses in time order, as detection returns them: 0.5 to 4 s each with 2 to 8 s of speech
 * between, typed by length (technical over 3 s, then awkward, dramatic or natural), technical and
 * awkward ones recommended for removal, with 6 to 12 words of context on each side.
 */
export function silencePauses(count: number, seed = 14): SilenceSegment[] {
  const next = random(seed);
  const out: SilenceSegment[] = [];
  let at = 1 + next() * 3;
  for (let i = 0; i < count; i++) {
    const duration = round(0.5 + next() * 3.5, 2);
    const roll = next();
    const pauseType: PauseType = duration > 3 ? 'technical' : roll < 0.35 ? 'awkward' : roll < 0.5 ? 'dramatic' : 'natural';
    const startTime = round(at, 2);
    const endTime = round(startTime + duration, 2);
    out.push({
      id: `pause-${i}`,
      startTime,
      endTime,
      duration: round(endTime - startTime, 3),
      recommendation: pauseType === 'technical' || pauseType === 'awkward' ? 'remove' : 'keep',
      pauseType,
      confidence: round(0.55 + next() * 0.43, 2),
      reason: REASONS[pauseType],
      precedingText: phrase(next, 6 + Math.floor(next() * 7)),
      followingText: phrase(next, 6 + Math.floor(next() * 7)),
    });
    at = endTime + 2 + next() * 6;
  }
  return out;
}

/** The detection answer for `silences`, as the gateway sends it. */
export function silenceAnalysis(silences: SilenceSegment[]): DetectSilenceResponse {
  const recommended = silences.filter((s) => s.recommendation === 'remove');
  const total = (list: SilenceSegment[]) => round(list.reduce((sum, s) => sum + s.duration, 0), 1);
  return {
    silences,
    speechMetrics: { wordsPerMinute: 152, speechPattern: 'steady', averagePauseDuration: 0.7, suggestedThresholds: { minPauseDuration: 0.9 } },
    summary: {
      total: silences.length,
      recommended: recommended.length,
      totalDuration: total(silences),
      recommendedDuration: total(recommended),
      estimatedTimeSaved: total(recommended),
      minPauseDuration: 0.5,
      autoThresholdApplied: false,
      padding: 0.1,
    },
  };
}

/** The rule that lays the non-virtualised list's rows out one after another (the editor's rows are absolutely placed). */
export const PLAIN_LIST_CSS = '.wc-silence-list--plain .wc-silence-row { position: relative; }';

/**
 * The page of either path: the shell's and the editor's CSS, a root for React, the analysis as a
 * JSON script element (every `<` escaped, so no text in it can close the element) and the bundle.
 */
export function silencePanelPage(p: { title: string; css: string; analysis: DetectSilenceResponse; script: string }): string {
  const json = JSON.stringify(p.analysis).replace(/</g, '\\u003c');
  return [
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${p.title.replace(/</g, '&lt;')}</title>`,
    `<style>${p.css.replace(/<\/style/gi, '<\\/style')}</style></head><body>`,
    '<div id="root"></div>',
    `<script type="application/json" id="${SILENCE_DATA_ID}">${json}</script>`,
    `<script src="${p.script}"></script></body></html>`,
  ].join('');
}

/**
 * Installed with `addInitScript` before the page's scripts, as plain JavaScript (a function would be
 * serialised from tsx's output, with helpers the page lacks). "Next frame" is requestAnimationFrame,
 * then a MessageChannel message, which runs once the frame was handed to the compositor. It exposes
 * `window.__wcSilence`:
 * - `firstRows`: when the first frame with a [data-testid="silence-row"] was done (ms since
 *   navigation start) and how many rows the document held then;
 * - `longFrames`: Long Animation Frames (50 ms or more);
 * - `pick(r)`: a row whose remove checkbox is wholly inside the list and the window, the r-th
 *   (0..1) of those, with the checkbox's centre and the row's decision;
 * - `arm(id, decision)`, a trusted click, then `result()`: from the click's `timeStamp` (a capturing
 *   window listener, before React's) to the mutation that sets the row's data-decision to
 *   `decision` (`domMs`) and to the next frame after it (`frameMs`);
 * - `jump(r)`: the list's scrollTop to r (0..1) of its range; `settle()`: two frames, then 50 ms;
 * - `scroll(ms)`: from the top, every frame puts the list's scrollTop at the share of its range
 *   that the time says (a scrollbar dragged top to bottom in `ms`; then at the bottom until the
 *   range has held for 3 frames, at most 60), and records each frame's
 *   interval and main-thread time as timeline-page.ts's recorder does, the Long Animation Frames
 *   in that time and the scroll events;
 * - `rows()`: the rows in the document.
 */
export const SILENCE_PROBE_SCRIPT = String.raw`(() => {
  if (window.__wcSilence) return;
  const ROW = '[data-testid="silence-row"]';
  const LIST = '[data-testid="silence-list"]';
  const afterFrame = (cb) => requestAnimationFrame((ts) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => cb(ts, performance.now());
    channel.port2.postMessage(null);
  });
  const S = { firstRows: null, longFrames: [], armed: null, pending: null };
  window.__wcSilence = S;
  try {
    new PerformanceObserver((list) => {
      for (const f of list.getEntries()) S.longFrames.push({ startTime: f.startTime, duration: f.duration });
    }).observe({ type: 'long-animation-frame', buffered: true });
  } catch (_) {
    S.longFrames = null;
  }
  const seen = new MutationObserver(() => {
    if (!document.querySelector(ROW)) return;
    seen.disconnect();
    afterFrame((_, done) => { S.firstRows = { frameAt: done, rows: document.querySelectorAll(ROW).length }; });
  });
  seen.observe(document, { childList: true, subtree: true });

  S.rows = () => document.querySelectorAll(ROW).length;
  S.settle = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 50))));
  S.jump = (r) => {
    const list = document.querySelector(LIST);
    list.scrollTop = r * Math.max(0, list.scrollHeight - list.clientHeight);
  };
  S.pick = (r) => {
    const list = document.querySelector(LIST).getBoundingClientRect();
    const fits = [];
    for (const row of document.querySelectorAll(ROW)) {
      const box = row.querySelector('[data-testid="silence-toggle"]').getBoundingClientRect();
      if (box.top >= list.top && box.bottom <= list.bottom && box.bottom <= window.innerHeight && box.width > 0) fits.push({ row, box });
    }
    if (fits.length === 0) return null;
    const { row, box } = fits[Math.min(fits.length - 1, Math.floor(r * fits.length))];
    return { id: row.dataset.silenceId, decision: row.dataset.decision, x: box.left + box.width / 2, y: box.top + box.height / 2 };
  };
  S.arm = (id, decision) => {
    const sample = { eventAt: null, domAt: null };
    let finish;
    S.pending = new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the row ' + id + ' did not become ' + decision + ' within 5 s')), 5000);
      finish = (value) => { clearTimeout(timer); resolve(value); };
    });
    const onClick = (e) => {
      window.removeEventListener('click', onClick, true);
      sample.eventAt = e.timeStamp;
    };
    window.addEventListener('click', onClick, true);
    const observer = new MutationObserver(() => {
      const row = document.querySelector('[data-silence-id="' + id + '"]');
      if (!row || row.dataset.decision !== decision || sample.eventAt === null) return;
      observer.disconnect();
      sample.domAt = performance.now();
      afterFrame((_, done) => finish({ domMs: sample.domAt - sample.eventAt, frameMs: done - sample.eventAt }));
    });
    observer.observe(document.body, { subtree: true, attributes: true, attributeFilter: ['data-decision'], childList: true });
  };
  S.result = () => S.pending;

  S.scroll = (ms) => new Promise((resolve) => {
    const list = document.querySelector(LIST);
    const frames = [];
    let scrollEvents = 0;
    const onScroll = () => { scrollEvents++; };
    list.addEventListener('scroll', onScroll, { passive: true });
    const startedAt = performance.now();
    let lastTs = null;
    let lastRange = -1;
    let atEnd = 0;
    const frame = (ts) => {
      const calledAt = performance.now();
      const share = Math.min(1, (calledAt - startedAt) / ms);
      const range = Math.max(0, list.scrollHeight - list.clientHeight);
      list.scrollTop = share * range;
      const intervalMs = lastTs === null ? null : ts - lastTs;
      lastTs = ts;
      // at the end, on until the range holds for 3 frames (a virtual list's last rows get measured there)
      if (share >= 1) atEnd++;
      const last = share >= 1 && ((range === lastRange && atEnd >= 3) || atEnd > 60);
      lastRange = range;
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        frames.push({ intervalMs, busyMs: performance.now() - ts, lagMs: calledAt - ts });
        if (!last) return;
        list.removeEventListener('scroll', onScroll);
        const endedAt = performance.now();
        const longFrames = (S.longFrames || []).filter((f) => f.startTime >= startedAt && f.startTime < endedAt);
        const atBottom = list.scrollTop >= list.scrollHeight - list.clientHeight - 2;
        resolve({ frames, longFrames, scrollEvents, atBottom, scrollHeight: list.scrollHeight, wallMs: endedAt - startedAt });
      };
      channel.port2.postMessage(null);
      if (!last) requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
})();`;

/** One toggle as `result()` reports it. */
export interface ToggleSample {
  /** click -> the row's data-decision changed */
  domMs: number;
  /** click -> the next frame after that */
  frameMs: number;
}

export interface ToggleFigures {
  samples: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  domP50Ms: number;
  domP95Ms: number;
}

/** Nearest-rank percentiles of the toggles, click to frame and click to DOM. */
export function summarizeToggles(samples: readonly ToggleSample[]): ToggleFigures {
  if (samples.length === 0) throw new Error('no toggles to summarise');
  const frame = samples.map((s) => s.frameMs);
  const dom = samples.map((s) => s.domMs);
  return {
    samples: samples.length,
    p50Ms: round(percentile(frame, 50)),
    p95Ms: round(percentile(frame, 95)),
    maxMs: round(Math.max(...frame)),
    domP50Ms: round(percentile(dom, 50)),
    domP95Ms: round(percentile(dom, 95)),
  };
}

/** What `scroll(ms)` resolves with. */
export interface ScrollRun {
  frames: FrameSample[];
  longFrames: LongTask[];
  scrollEvents: number;
  atBottom: boolean;
  scrollHeight: number;
  wallMs: number;
}

export interface ScrollFigures extends FrameFigures {
  /** nearest-rank p95 of the frame intervals (16.7 ms at 60 Hz while every frame is made) */
  intervalP95Ms: number;
  /** intervals of LONG_FRAME_MS or more: what a user sees as a stall */
  longIntervals: number;
}

/**
 * A scroll's frames: timeline-page.ts's figures (the main-thread time per frame, its long tasks
 * here being the Long Animation Frames), plus the p95 interval and the intervals of 50 ms or more.
 */
export function summarizeScroll(run: Pick<ScrollRun, 'frames' | 'longFrames'>): ScrollFigures {
  const intervals = run.frames.map((f) => f.intervalMs).filter((i): i is number => i !== null && i > 0);
  return {
    ...summarizeFrames(run.frames, run.longFrames),
    intervalP95Ms: round(intervals.length > 0 ? percentile(intervals, 95) : FRAME_BUDGET_MS),
    longIntervals: intervals.filter((i) => i >= LONG_FRAME_MS).length,
  };
}
