/**
 * Section 7's browser side, kept pure: the instrumentation script every page of the run gets, the
 * non-virtualised page of the alternative, and how the samples are summarised.
 */
import type { Paragraph, Word } from '@wordcut/contracts';
import { formatTimestamp } from '../../apps/editor/src/shared/format';
import { confidenceLevel, paragraphRows } from '../../apps/editor/src/transcript/transcriptView';
import { percentile, round } from './common';

/**
 * Installed with `addInitScript` before any script of a page runs, as plain JavaScript: a function
 * would be serialised from tsx's output, which can carry compiled helpers the page does not have.
 *
 * "Next paint" is requestAnimationFrame, then a MessageChannel message: rAF callbacks run in the
 * frame's rendering step before style, layout and paint, and the message task runs right after that
 * step, so its time is when the frame was handed on. It exposes `window.__wcBench`:
 * - `firstWordsPaint`: performance.now() (ms since navigation start) of the first frame painted
 *   with a [data-testid="transcript-word"] in the document (a MutationObserver sees it appear);
 * - `domReadyPaint`: the same after DOMContentLoaded (for a static page: every word is in it);
 * - `arm(type)` then a trusted input, then `result()`: the next `type` event ('click' or
 *   'keydown') is timed from its `timeStamp` to the next paint by a capturing window listener,
 *   which runs before the page's own handlers;
 * - `longFrames`: Long Animation Frames (50 ms or more), each with its longest script, to say
 *   where slow samples' time went;
 * - helpers to pick a visible word, scroll the list, wait for a text, settle and read the CSS.
 */
export const PAGE_PROBE_SCRIPT = String.raw`(() => {
  if (window.__wcBench) return;
  const WORD = '[data-testid="transcript-word"]';
  const afterPaint = (cb) => requestAnimationFrame(() => {
    const frameAt = performance.now();
    const channel = new MessageChannel();
    channel.port1.onmessage = () => cb(frameAt, performance.now());
    channel.port2.postMessage(null);
  });
  const B = { firstWordsPaint: null, domReadyPaint: null, armed: null, pending: null, longFrames: [] };
  window.__wcBench = B;
  try {
    new PerformanceObserver((list) => {
      for (const f of list.getEntries()) {
        const script = f.scripts.reduce((a, b) => (b.duration > (a ? a.duration : -1) ? b : a), null);
        B.longFrames.push({ startTime: f.startTime, duration: f.duration, script: script ? [script.invoker, script.sourceFunctionName].filter(Boolean).join(' ') + ' (' + Math.round(script.duration) + ' ms)' : '' });
      }
    }).observe({ type: 'long-animation-frame', buffered: true });
  } catch (_) {
    B.longFrames = null;
  }

  const seen = new MutationObserver(() => {
    if (!document.querySelector(WORD)) return;
    seen.disconnect();
    afterPaint((_, paint) => { B.firstWordsPaint = paint; });
  });
  seen.observe(document, { childList: true, subtree: true });
  document.addEventListener('DOMContentLoaded', () => afterPaint((_, paint) => { B.domReadyPaint = paint; }));

  const onInput = (e) => {
    if (B.armed !== e.type) return;
    B.armed = null;
    const ts = e.timeStamp;
    const handledAt = performance.now();
    B.pending = new Promise((resolve) =>
      afterPaint((frameAt, paint) => resolve({ ts, latencyMs: paint - ts, frameMs: frameAt - ts, queueMs: handledAt - ts })),
    );
  };
  addEventListener('click', onInput, true);
  addEventListener('keydown', onInput, true);
  B.arm = (type) => { B.armed = type; B.pending = null; };
  B.result = (timeoutMs = 5000) => new Promise((resolve, reject) => {
    const until = performance.now() + timeoutMs;
    const poll = () => {
      if (B.pending) return void B.pending.then(resolve);
      if (performance.now() > until) return reject(new Error('no ' + B.armed + ' event reached the page within ' + timeoutMs + ' ms'));
      setTimeout(poll, 2);
    };
    poll();
  });

  B.settle = (ms) => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, ms))));
  const list = () => document.querySelector('[data-testid="transcript-list"]');
  /** A word fully inside the list's visible part and not covered, chosen by the given random numbers. */
  B.pickWord = (randoms) => {
    const box = list().getBoundingClientRect();
    const top = Math.max(box.top, 0);
    const bottom = Math.min(box.bottom, innerHeight);
    for (let k = 0; k + 1 < randoms.length; k += 2) {
      const hit = document.elementFromPoint(box.left + randoms[k] * box.width, top + randoms[k + 1] * (bottom - top));
      const word = hit && hit.closest ? hit.closest(WORD) : null;
      if (!word) continue;
      const r = word.getBoundingClientRect();
      const x = r.left + r.width / 2;
      const y = r.top + r.height / 2;
      if (r.top < top || r.bottom > bottom || document.elementFromPoint(x, y) !== word) continue;
      return { index: Number(word.dataset.wordIndex), x, y };
    }
    return null;
  };
  B.scrollList = (fraction) => {
    const el = list();
    el.scrollTop = fraction * (el.scrollHeight - el.clientHeight);
  };
  /** Resolves with the paint time once the element's text is the given one (or rejects after timeoutMs). */
  B.waitText = (selector, text, timeoutMs) => new Promise((resolve, reject) => {
    const el = document.querySelector(selector);
    if (!el) return reject(new Error(selector + ' is not in the page'));
    const done = () => { observer.disconnect(); clearTimeout(timer); afterPaint((_, paint) => resolve(paint)); };
    const observer = new MutationObserver(() => { if (el.textContent === text) done(); });
    const timer = setTimeout(() => { observer.disconnect(); reject(new Error(selector + ' shows "' + el.textContent + '", not "' + text + '"')); }, timeoutMs);
    if (el.textContent === text) return done();
    observer.observe(el, { childList: true, subtree: true, characterData: true });
  });
  /** Keyboard focus inside the transcript (the roving tab stop), as after a click on a word. */
  B.focusTranscript = () => {
    const editor = document.querySelector('[data-testid="transcript-editor"]');
    if (editor.contains(document.activeElement) && document.activeElement.matches(WORD)) return;
    const word = editor.querySelector(WORD + '[tabindex="0"]') || editor.querySelector(WORD);
    word.focus({ preventScroll: true });
  };
  B.css = () => Array.from(document.styleSheets).map((sheet) => {
    try { return Array.from(sheet.cssRules).map((rule) => rule.cssText).join('\n'); } catch (_) { return ''; }
  }).join('\n');
  B.listWidth = () => list().clientWidth;
})();`;

/** One sample: the input event's timeStamp and the next paint after it, in ms. */
export interface PaintSample {
  ts: number;
  latencyMs: number;
  /** to the next frame's requestAnimationFrame callback (handlers done, style/layout/paint to come) */
  frameMs: number;
  /** to the first listener (input routing and whatever held the main thread) */
  queueMs: number;
}

/** A Long Animation Frame as the page keeps it. */
export interface LongFrame {
  startTime: number;
  duration: number;
  /** its longest script: invoker, function and duration */
  script: string;
}

/** The long frames of one phase of the run (a time window of the page's clock). */
export interface LongFrameFigures {
  phase: string;
  count: number;
  maxMs: number;
  /** the longest frame's longest script */
  longestScript: string;
}

/** The long frames that started in [fromMs, toMs) of the page's clock: how many, and the longest with its script. */
export function longFramesIn(frames: readonly LongFrame[], phase: string, fromMs: number, toMs: number): LongFrameFigures {
  const inPhase = frames.filter((f) => f.startTime >= fromMs && f.startTime < toMs);
  const longest = inPhase.reduce<LongFrame | null>((a, f) => (a && a.duration >= f.duration ? a : f), null);
  return { phase, count: inPhase.length, maxMs: round(longest?.duration ?? 0), longestScript: longest?.script ?? '' };
}

export interface LatencyFigures {
  samples: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  /** where the time goes, means: event -> first listener (input routing, a busy main thread) */
  meanQueueMs: number;
  /** event -> the next frame's rAF callback (the page's handlers, then waiting for the frame) */
  meanToFrameMs: number;
}

const mean = (values: readonly number[]): number => values.reduce((t, v) => t + v, 0) / values.length;

/** Nearest-rank p50 and p95, the max, and the means that say where the time went. */
export function summarizePaintSamples(samples: readonly PaintSample[]): LatencyFigures {
  if (samples.length === 0) throw new Error('no samples to summarise');
  const latencies = samples.map((s) => s.latencyMs);
  return {
    samples: samples.length,
    p50Ms: round(percentile(latencies, 50)),
    p95Ms: round(percentile(latencies, 95)),
    maxMs: round(Math.max(...latencies)),
    meanQueueMs: round(mean(samples.map((s) => s.queueMs))),
    meanToFrameMs: round(mean(samples.map((s) => s.frameMs))),
  };
}

export type WordFields = Pick<Word, 'text' | 'start' | 'end' | 'confidence'>;

/** The first word (and field) where `now` differs from `original`, or null when they are the same. */
export function firstDifference(original: readonly WordFields[], now: readonly WordFields[]): string | null {
  for (let i = 0; i < Math.max(original.length, now.length); i++) {
    const a = original[i];
    const b = now[i];
    if (!a || !b) return `word ${i}: ${a ? `'${a.text}'` : 'none'} -> ${b ? `'${b.text}'` : 'none'} (${original.length} -> ${now.length} words)`;
    for (const f of ['text', 'start', 'end', 'confidence'] as const) if (a[f] !== b[f]) return `word ${i} ${f}: ${JSON.stringify(a[f])} -> ${JSON.stringify(b[f])}`;
  }
  return null;
}

const escapeHtml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export interface PlainPageInput {
  words: readonly Word[];
  paragraphs: readonly Paragraph[];
  /** the editor page's style rules, so both pages look alike */
  css: string;
  /** the editor's list width, so the words wrap the same */
  widthPx: number;
  maxHeightPx: number;
}

/**
 * The obvious alternative to a virtualised list: every paragraph and word in the page at once, as
 * static HTML with the editor's markup (the same elements, classes and attributes as its
 * ParagraphView) in a scroll box of the same size. A click on a word selects it: one class moves.
 * No framework and no data fetch, so it is the cheapest form of a non-virtualised page.
 */
export function plainTranscriptPage(p: PlainPageInput): string {
  const rows = paragraphRows({ words: [...p.words], paragraphs: [...p.paragraphs] });
  const paragraphs = rows.map((row) => {
    const spans = row.wordIndices.map((i, n) => {
      const w = p.words[i]!;
      const level = confidenceLevel(w.confidence);
      const title = `${formatTimestamp(w.start)} · confidence ${Math.round(w.confidence * 100)}%`;
      return (
        `<span>${n > 0 ? ' ' : ''}<span role="button" tabindex="-1" class="wc-word wc-word--${level}" data-word-index="${i}" data-start="${w.start}" ` +
        `data-confidence="${level}" data-testid="transcript-word" aria-pressed="false" title="${escapeHtml(title)}">${escapeHtml(w.text)}</span></span>`
      );
    });
    return (
      `<div class="wc-paragraph" data-testid="transcript-paragraph"><time class="wc-paragraph__time" datetime="PT${Math.floor(row.start)}S" dir="ltr">` +
      `${formatTimestamp(row.start)}</time><p class="wc-paragraph__text">${spans.join('')}</p></div>`
    );
  });
  const select = `let selected = null;
document.querySelector('.wc-transcript__list').addEventListener('click', (e) => {
  const word = e.target.closest('[data-word-index]');
  if (!word) return;
  if (selected) { selected.classList.remove('wc-word--selected'); selected.setAttribute('aria-pressed', 'false'); }
  word.classList.add('wc-word--selected');
  word.setAttribute('aria-pressed', 'true');
  selected = word;
});`;
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Transcript, not virtualised</title>',
    `<style>${p.css.replace(/<\/style/gi, '<\\/style')}</style></head><body>`,
    `<main style="width:${p.widthPx}px;margin:1rem">`,
    `<div class="wc-transcript__scroll" style="max-height:${p.maxHeightPx}px" data-testid="transcript-list">`,
    `<div class="wc-transcript__list" role="group" aria-label="Transcript words">${paragraphs.join('')}</div></div></main>`,
    `<script>${select}</script></body></html>`,
  ].join('');
}
