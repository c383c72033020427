import type { MuteLevel } from '@wordcut/edit-list';
import { formatTickTime, peakBars, rangesInWindow, rulerTicks, visibleWindow } from '@wordcut/editor-core';
import type { PeakPyramid, TimeRange } from '@wordcut/editor-core';
import type { WorkspaceSnapshot } from '../shared/workspace';
import { placeTickLabels } from './tickLabels';

/** How the timeline canvas is drawn: ranges under the bars, the visible window's bars, the ruler. */

const WAVE_HEIGHT = 72;
const RULER_HEIGHT = 18;
export const TIMELINE_HEIGHT = WAVE_HEIGHT + RULER_HEIGHT;
const BAR_WIDTH = 2;
const BAR_GAP = 1;
const COLORS = {
  bar: '#9aa9e8',
  played: '#3b5bdb',
  cut: 'rgba(224, 49, 49, 0.35)',
  cutEdge: '#e03131',
  silence: 'rgba(134, 142, 150, 0.35)',
  range: 'rgba(47, 158, 68, 0.18)',
  ruler: '#868e96',
  rulerText: '#495057',
};

const MUTE_VOLUME_COLORS: Record<MuteLevel, { fill: string; edge: string }> = {
  silence: { fill: 'rgba(240, 140, 0, 0.35)', edge: '#e8590c' },
  whisper: { fill: 'rgba(250, 176, 5, 0.28)', edge: '#f59f00' },
  background: { fill: 'rgba(252, 196, 25, 0.2)', edge: '#fab005' },
};

/** Everything one frame of the timeline shows. */
export interface TimelineFrame {
  pyramid: PeakPyramid | null;
  duration: number;
  contentWidth: number;
  viewportWidth: number;
  scrollLeft: number;
  currentTime: number;
  workspace: WorkspaceSnapshot;
  /** the marks' merged ranges, computed when the marks change rather than per frame */
  cutRanges: TimeRange[];
  silenceRanges: TimeRange[];
}

/**
 * Draws the visible window of the timeline on `canvas` (sized to the viewport at the device pixel
 * ratio): the keep range, silences, mutes and cuts, then the waveform bars (played part in the
 * played colour), then 11 ruler ticks. `barsBuffer` is reused between frames. False when the
 * canvas has no 2D context.
 */
export function drawTimeline(canvas: HTMLCanvasElement, frame: TimelineFrame, barsBuffer: { current: Float32Array }): boolean {
  const ratio = window.devicePixelRatio || 1;
  const width = frame.viewportWidth;
  const pixelW = Math.round(width * ratio);
  const pixelH = Math.round(TIMELINE_HEIGHT * ratio);
  if (canvas.width !== pixelW) canvas.width = pixelW;
  if (canvas.height !== pixelH) canvas.height = pixelH;
  const ctx = canvas.getContext('2d');
  if (!ctx) return false;
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, width, TIMELINE_HEIGHT);
  const shown = visibleWindow(frame.scrollLeft, width, frame.contentWidth, frame.duration);
  const pxPerSecond = frame.duration > 0 ? frame.contentWidth / frame.duration : 0;
  const xOf = (time: number) => time * pxPerSecond - frame.scrollLeft;
  const playX = xOf(frame.currentTime);

  // ranges under the bars
  const { range, pendingMutes } = frame.workspace;
  if (range) fillRange(ctx, xOf(range.start), xOf(range.end), COLORS.range, null);
  for (const silence of rangesInWindow(frame.silenceRanges, shown.start, shown.end)) {
    fillRange(ctx, xOf(silence.start), xOf(silence.end), COLORS.silence, null);
  }
  for (const mute of pendingMutes) {
    if (mute.endTime < shown.start || mute.startTime > shown.end) continue;
    fillRange(ctx, xOf(mute.startTime), xOf(mute.endTime), MUTE_VOLUME_COLORS[mute.level].fill, MUTE_VOLUME_COLORS[mute.level].edge);
  }
  for (const cut of rangesInWindow(frame.cutRanges, shown.start, shown.end)) {
    fillRange(ctx, xOf(cut.start), xOf(cut.end), COLORS.cut, COLORS.cutEdge);
  }

  // bars of the visible window
  if (frame.pyramid && frame.contentWidth > 0) {
    const firstBar = Math.floor(frame.scrollLeft / (BAR_WIDTH + BAR_GAP));
    const barCount = Math.ceil(width / (BAR_WIDTH + BAR_GAP)) + 1;
    const totalBars = Math.max(1, Math.floor(frame.contentWidth / (BAR_WIDTH + BAR_GAP)));
    const from = firstBar / totalBars;
    const to = Math.min(1, (firstBar + barCount) / totalBars);
    const count = Math.max(0, Math.min(barCount, totalBars - firstBar));
    if (barsBuffer.current.length < count) barsBuffer.current = new Float32Array(count);
    const bars = peakBars(frame.pyramid, from, to, count, barsBuffer.current);
    const mid = RULER_HEIGHT + WAVE_HEIGHT / 2;
    for (let i = 0; i < count; i += 1) {
      const x = (firstBar + i) * (BAR_WIDTH + BAR_GAP) - frame.scrollLeft;
      const height = Math.max(1, Math.min(1, bars[i]!) * (WAVE_HEIGHT - 4));
      ctx.fillStyle = x + BAR_WIDTH <= playX ? COLORS.played : COLORS.bar;
      ctx.fillRect(x, mid - height / 2, BAR_WIDTH, height);
    }
  }

  // the ruler: 11 ticks across the visible window
  ctx.fillStyle = COLORS.ruler;
  ctx.font = '10px system-ui, sans-serif';
  ctx.textBaseline = 'top';
  const span = shown.end - shown.start;
  const ticks = rulerTicks(shown.start, shown.end).map((tick) => ({ x: Math.round(tick.fraction * (width - 1)) + 0.5, text: formatTickTime(tick.time, span) }));
  ticks.forEach((tick, i) => ctx.fillRect(tick.x, 0, 1, i % 5 === 0 ? 8 : 5));
  // labels only where they fit beside each other (every tick keeps its mark)
  const labels = placeTickLabels(ticks, width, (text) => ctx.measureText(text).width);
  ctx.fillStyle = COLORS.rulerText;
  ctx.textAlign = 'left';
  for (const label of labels) ctx.fillText(label.text, label.left, 8);
  const shownLabels = labels.map((l) => `${l.text}@${Math.round(l.left)}-${Math.round(l.right)}`).join(' ');
  if (canvas.dataset['tickLabels'] !== shownLabels) canvas.dataset['tickLabels'] = shownLabels;

  return true;
}

function fillRange(ctx: CanvasRenderingContext2D, x1: number, x2: number, fill: string, edge: string | null) {
  const left = Math.max(-1, x1);
  const right = Math.min(ctx.canvas.width + 1, x2);
  if (right <= left) return;
  ctx.fillStyle = fill;
  ctx.fillRect(left, RULER_HEIGHT, Math.max(1, right - left), WAVE_HEIGHT);
  if (edge) {
    ctx.fillStyle = edge;
    ctx.fillRect(left, RULER_HEIGHT, Math.max(1, right - left), 2);
  }
}
