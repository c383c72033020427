/**
 * Section 8's browser side, kept pure: the frame recorder every page of the run gets, the
 * full-width canvas page of the alternative, and how the frames are summarised.
 */
import { percentile, round } from './common';

/** One frame at 60 Hz: the budget a frame's main-thread work must stay within (the target is p95 < 16 ms). */
export const FRAME_BUDGET_MS = 1000 / 60;

/**
 * Installed with `addInitScript` before any script of a page runs, as plain JavaScript (a function
 * would be serialised from tsx's output, which can carry compiled helpers the page does not have).
 * It exposes `window.__wcTimeline.run({ ms, scrollPx, viewport, video })`, which records every
 * animation frame for `ms` milliseconds and resolves with:
 * - `frames`: per frame, `intervalMs` (this frame's requestAnimationFrame timestamp minus the
 *   previous one's: 16.7 ms at 60 Hz, a multiple of it when frames were skipped) and `busyMs`,
 *   the frame's main-thread time: from the frame's timestamp (when the frame began) to a
 *   MessageChannel message posted from the frame's requestAnimationFrame callback. The callbacks,
 *   style, layout, paint (a canvas' drawing is flushed there) and the commit to the compositor all
 *   run in the one rendering task, so the message runs right after the frame was handed on; any
 *   task that delayed the frame's start (a scroll or media event, a React render) is inside it
 *   too. This is the figure to hold against the 16.7 ms budget: in headless Chromium the frame
 *   interval is pinned at 16.7 ms as long as the work fits, so the interval alone hides how close
 *   to the budget a page is. `lagMs` is the part before our callback ran;
 * - `longTasks`: the page's long tasks (`longtask` entries, 50 ms or more) in that time;
 * - `scrollEvents` on the viewport (when `scrollPx` is 0: the times the timeline followed the
 *   playhead) and `scrollWrites`: with `scrollPx` > 0 each frame's callback moves the viewport's
 *   scrollLeft by that much, turning at either end, as a fast drag would;
 * - with `canvas` (a selector), the draws of that canvas and their time in script: its
 *   `getContext` is wrapped for the run, and a draw is timed from that call to a microtask queued
 *   by it, which runs once the drawing function has returned (a draw that gets its context each
 *   time, as the editor's timeline does; a page that keeps its context counts none);
 * - the video's time before and after, and whether it was paused at the end.
 */
export const TIMELINE_PROBE_SCRIPT = String.raw`(() => {
  if (window.__wcTimeline) return;
  const T = {};
  window.__wcTimeline = T;
  T.run = (o) => new Promise((resolve, reject) => {
    const vp = document.querySelector(o.viewport);
    const video = document.querySelector(o.video);
    if (!vp || !video) return reject(new Error((vp ? o.video : o.viewport) + ' is not in the page'));
    const frames = [];
    const longTasks = [];
    let observer = null;
    try {
      observer = new PerformanceObserver((list) => {
        for (const e of list.getEntries()) longTasks.push({ startTime: e.startTime, duration: e.duration });
      });
      observer.observe({ type: 'longtask' });
    } catch (_) {
      observer = null;
    }
    let draws = 0;
    let drawMs = 0;
    const canvas = o.canvas ? document.querySelector(o.canvas) : null;
    if (canvas) {
      const getContext = canvas.getContext;
      canvas.getContext = function (...args) {
        const calledAt = performance.now();
        queueMicrotask(() => { draws++; drawMs += performance.now() - calledAt; });
        return getContext.apply(this, args);
      };
    }
    let scrollEvents = 0;
    const onScroll = () => { scrollEvents++; };
    vp.addEventListener('scroll', onScroll, { passive: true });
    const startedAt = performance.now();
    const mediaFromSec = video.currentTime;
    let direction = 1;
    let scrollWrites = 0;
    let lastTs = null;
    const finish = () => {
      if (observer) {
        for (const e of observer.takeRecords()) longTasks.push({ startTime: e.startTime, duration: e.duration });
        observer.disconnect();
      }
      vp.removeEventListener('scroll', onScroll);
      if (canvas) delete canvas.getContext;
      resolve({ frames, longTasks, scrollEvents, scrollWrites, draws, drawMs, mediaFromSec, mediaToSec: video.currentTime, paused: video.paused, wallMs: performance.now() - startedAt });
    };
    const frame = (ts) => {
      const calledAt = performance.now();
      const last = calledAt - startedAt >= o.ms;
      if (o.scrollPx > 0 && !last) {
        const max = Math.max(0, vp.scrollWidth - vp.clientWidth);
        const next = vp.scrollLeft + direction * o.scrollPx;
        if (next > max || next < 0) direction = -direction;
        vp.scrollLeft = Math.max(0, Math.min(max, vp.scrollLeft + direction * o.scrollPx));
        scrollWrites++;
      }
      const intervalMs = lastTs === null ? null : ts - lastTs;
      lastTs = ts;
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        frames.push({ intervalMs, busyMs: performance.now() - ts, lagMs: calledAt - ts });
        if (last) finish();
      };
      channel.port2.postMessage(null);
      if (!last) requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
})();`;

/** One frame as the recorder reports it. */
export interface FrameSample {
  /** since the previous frame's timestamp; null for the first frame */
  intervalMs: number | null;
  /** the frame's timestamp -> its rendering task done (main-thread time of the frame) */
  busyMs: number;
  /** the frame's timestamp -> the recorder's callback */
  lagMs: number;
}

export interface LongTask {
  startTime: number;
  duration: number;
}

/** What `window.__wcTimeline.run` resolves with. */
export interface TimelineRun {
  frames: FrameSample[];
  longTasks: LongTask[];
  scrollEvents: number;
  scrollWrites: number;
  /** draws of the `canvas` given, and their total time in script (0 without one) */
  draws: number;
  drawMs: number;
  mediaFromSec: number;
  mediaToSec: number;
  paused: boolean;
  wallMs: number;
}

export interface FrameFigures {
  frames: number;
  /** frame time (busyMs): nearest-rank percentiles and the max */
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
  /** frames whose time was over FRAME_BUDGET_MS */
  overBudget: number;
  /** the median frame interval (16.7 ms at 60 Hz) and the longest */
  intervalMs: number;
  maxIntervalMs: number;
  /** frames the display did not get: per interval, how many whole median intervals it spans beyond one */
  missedFrames: number;
  longTasks: number;
  longTaskMaxMs: number;
}

/**
 * Summarises one phase's frames: percentiles of the frame time (percentile from common.ts, nearest
 * rank), how many went over the 60 Hz budget, and the frames missed, counted against the median
 * interval (an interval of 2.4 medians = 1 missed frame, 2.6 = 2).
 */
export function summarizeFrames(frames: readonly FrameSample[], longTasks: readonly LongTask[]): FrameFigures {
  if (frames.length === 0) throw new Error('no frames to summarise');
  const busy = frames.map((f) => f.busyMs);
  const intervals = frames.map((f) => f.intervalMs).filter((i): i is number => i !== null && i > 0);
  const nominal = intervals.length > 0 ? percentile(intervals, 50) : FRAME_BUDGET_MS;
  const missedFrames = intervals.reduce((n, i) => n + Math.max(0, Math.round(i / nominal) - 1), 0);
  return {
    frames: frames.length,
    p50Ms: round(percentile(busy, 50)),
    p95Ms: round(percentile(busy, 95)),
    p99Ms: round(percentile(busy, 99)),
    maxMs: round(Math.max(...busy)),
    overBudget: busy.filter((b) => b > FRAME_BUDGET_MS).length,
    intervalMs: round(nominal),
    maxIntervalMs: round(intervals.length > 0 ? Math.max(...intervals) : 0),
    missedFrames,
    longTasks: longTasks.length,
    longTaskMaxMs: round(longTasks.reduce((m, t) => Math.max(m, t.duration), 0)),
  };
}

/** The largest canvas side Chromium draws (px of the backing store); a wider canvas stays blank. */
export const MAX_CANVAS_PX = 32_767;

/** The editor timeline's geometry and colours (apps/editor/src/timeline/WaveformTimeline.tsx), which the alternative copies. */
const TIMELINE_LOOK = {
  waveHeight: 72,
  rulerHeight: 18,
  barWidth: 2,
  barGap: 1,
  colors: { bar: '#9aa9e8', played: '#3b5bdb', ruler: '#868e96', rulerText: '#495057', playhead: '#e03131' },
} as const;

/** How often the playhead moves (the editor's playback store: TIME_UPDATE_INTERVAL_MS). */
const UPDATE_INTERVAL_MS = 100;

export interface FullCanvasPageInput {
  /**
   * the video's stream, same-origin (the page is served with the gateway proxied under /api): the
   * signed URL the gateway gives the owner (`streamUrl` of GET /api/videos/{id}), as a `<video>`
   * element sends no header
   */
  streamUrl: string;
  /** GET /api/videos/{id}/waveform with the points the editor asks for at this zoom */
  waveformUrl: string;
  /** the Authorization header the waveform request carries (the video owner's bearer token), as the editor's fetcher sends it */
  authorization?: string;
  /** the editor's timeline viewport width, so both show the same seconds per pixel */
  viewportWidthPx: number;
  zoom: number;
}

/**
 * The obvious alternative to the editor's viewport-sized canvas: ONE canvas as wide as the whole
 * zoomed timeline (zoom x the viewport, capped at MAX_CANVAS_PX of backing store) inside the same
 * scrolling viewport, holding every bar, the played colour, a ruler over the whole content and the
 * playhead. It redraws all of it, computing each bar as the max of its slice of the peaks, on every
 * playhead move (every 100 ms while playing, as the editor's store reports time; and after a seek)
 * and, while `window.__wcAlt.redrawOnScroll` is true, on every scroll event. It follows the playhead
 * like the editor (off the view or within 5% of its right edge -> the playhead at a quarter of it).
 * Same peaks (the same API call, with the same bearer header), bar geometry and colours as the
 * editor; no framework.
 * `window.__wcAlt` tells whether the peaks arrived (`ready`), the redraws done, their total time
 * in script (`drawMs`) and the canvas' CSS width.
 */
export function fullCanvasTimelinePage(p: FullCanvasPageInput): string {
  const L = TIMELINE_LOOK;
  const config = {
    streamUrl: p.streamUrl,
    waveformUrl: p.waveformUrl,
    authorization: p.authorization ?? null,
    viewportWidth: p.viewportWidthPx,
    zoom: p.zoom,
    maxCanvas: MAX_CANVAS_PX,
    updateMs: UPDATE_INTERVAL_MS,
    ...L,
  };
  const script = String.raw`const C = ${JSON.stringify(config).replace(/</g, '\\u003c')};
const A = { ready: false, error: null, redraws: 0, drawMs: 0, redrawOnScroll: true, contentWidth: 0 };
window.__wcAlt = A;
const H = C.waveHeight + C.rulerHeight;
const video = document.querySelector('[data-testid="video-player"]');
const vp = document.querySelector('[data-testid="timeline-viewport"]');
const canvas = document.querySelector('[data-testid="waveform-canvas"]');
const ratio = window.devicePixelRatio || 1;
const W = Math.min(Math.round(C.viewportWidth * C.zoom), Math.floor(C.maxCanvas / ratio));
A.contentWidth = W;
canvas.width = Math.round(W * ratio);
canvas.height = Math.round(H * ratio);
canvas.style.width = W + 'px';
canvas.style.height = H + 'px';
const ctx = canvas.getContext('2d');
let peaks = [];
let duration = 0;
let current = 0;
const pad = (n) => String(n).padStart(2, '0');
const label = (t) => {
  const s = Math.floor(t);
  const h = Math.floor(s / 3600);
  return (h > 0 ? h + ':' + pad(Math.floor(s / 60) % 60) : String(Math.floor(s / 60))) + ':' + pad(s % 60);
};
function draw() {
  const t0 = performance.now();
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, W, H);
  const n = peaks.length;
  const step = C.barWidth + C.barGap;
  const count = Math.floor(W / step);
  const playX = duration > 0 ? (current / duration) * W : 0;
  const mid = C.rulerHeight + C.waveHeight / 2;
  for (let i = 0; i < count; i++) {
    const from = Math.floor((i * n) / count);
    const to = Math.max(from + 1, Math.floor(((i + 1) * n) / count));
    let peak = 0;
    for (let j = from; j < to && j < n; j++) if (peaks[j] > peak) peak = peaks[j];
    const h = Math.max(1, Math.min(1, peak) * (C.waveHeight - 4));
    const x = i * step;
    ctx.fillStyle = x + C.barWidth <= playX ? C.colors.played : C.colors.bar;
    ctx.fillRect(x, mid - h / 2, C.barWidth, h);
  }
  // the ruler: 10 divisions per viewport width, over the whole content
  const divisions = Math.max(10, Math.round((W / C.viewportWidth) * 10));
  ctx.font = '10px system-ui, sans-serif';
  ctx.textBaseline = 'top';
  for (let k = 0; k <= divisions; k++) {
    const x = Math.round((k / divisions) * (W - 1)) + 0.5;
    ctx.fillStyle = C.colors.ruler;
    ctx.fillRect(x, 0, 1, k % 5 === 0 ? 8 : 5);
    ctx.fillStyle = C.colors.rulerText;
    ctx.textAlign = k === 0 ? 'left' : k === divisions ? 'right' : 'center';
    ctx.fillText(label((k / divisions) * duration), x, 8);
  }
  ctx.fillStyle = C.colors.playhead;
  ctx.fillRect(playX - 1, 0, 2, H);
  A.redraws++;
  A.drawMs += performance.now() - t0;
}
function follow() {
  if (!(duration > 0)) return;
  const x = (current / duration) * W;
  const w = vp.clientWidth;
  if (x >= vp.scrollLeft && x < vp.scrollLeft + w * 0.95) return;
  vp.scrollLeft = Math.max(0, Math.min(W - w, x - w * 0.25));
}
function moveTo(t) {
  current = t;
  follow();
  draw();
}
let lastUpdate = -Infinity;
let ticking = 0;
function tick() {
  const now = performance.now();
  if (now - lastUpdate >= C.updateMs) {
    lastUpdate = now;
    moveTo(video.currentTime);
  }
  ticking = requestAnimationFrame(tick);
}
video.addEventListener('play', () => { if (!ticking) ticking = requestAnimationFrame(tick); });
video.addEventListener('pause', () => { cancelAnimationFrame(ticking); ticking = 0; moveTo(video.currentTime); });
video.addEventListener('seeked', () => { lastUpdate = performance.now(); moveTo(video.currentTime); });
vp.addEventListener('scroll', () => { if (A.redrawOnScroll) draw(); }, { passive: true });
fetch(C.waveformUrl, C.authorization ? { headers: { authorization: C.authorization } } : undefined)
  .then((r) => (r.ok ? r.json() : Promise.reject(new Error('GET ' + C.waveformUrl + ': ' + r.status))))
  .then((w) => {
    peaks = w.peaks;
    duration = w.duration;
    draw();
    A.ready = true;
  })
  .catch((e) => { A.error = String(e); });`;
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Timeline, one full-width canvas</title>',
    '<style>body{margin:16px;font-family:system-ui,sans-serif}',
    '.vp{overflow-x:auto;overflow-y:hidden;position:relative;border:1px solid #dee2e6;border-radius:4px}',
    'canvas{display:block}video{display:block;width:640px;height:360px;background:#000;margin-bottom:12px}</style></head><body>',
    `<video data-testid="video-player" src="${escapeAttr(p.streamUrl)}" preload="metadata" playsinline></video>`,
    `<div class="vp" data-testid="timeline-viewport" style="width:${Math.round(p.viewportWidthPx)}px">`,
    '<canvas data-testid="waveform-canvas" aria-hidden="true"></canvas></div>',
    `<script>${script}</script></body></html>`,
  ].join('');
}

const escapeAttr = (s: string): string => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
