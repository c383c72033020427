import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { KeyboardEvent, MouseEvent } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Video } from '@wordcut/contracts';
import type { MuteLevel } from '@wordcut/edit-list';
import {
  buildPeakPyramid,
  canZoomIn,
  canZoomOut,
  cutSkipRanges,
  followPlayhead,
  formatTickTime,
  formatZoom,
  peakBars,
  rangesInWindow,
  rulerTicks,
  silenceSkipRanges,
  visibleWindow,
  zoomIn,
  zoomOut,
} from '@wordcut/editor-core';
import type { PeakPyramid, TimeRange } from '@wordcut/editor-core';
import { fetchWaveform, videoKeys } from './api';
import type { TimelinePeaks } from './api';
import { usePlayback, usePlaybackStore } from './playback';
import { formatTimestamp } from './transcriptView';
import { waveformPoints } from './waveform';
import { useWorkspaceStore } from './workspace';
import type { WorkspaceSnapshot } from './workspace';

export const NO_AUDIO_TEXT = 'This video has no audio track.';
const WAVE_HEIGHT = 72;
const RULER_HEIGHT = 18;
const HEIGHT = WAVE_HEIGHT + RULER_HEIGHT;
const BAR_WIDTH = 2;
const BAR_GAP = 1;
const KEY_SEEK_SECONDS = 5;
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

/**
 * The advanced timeline (seed 000 §4 "Timeline"): waveform peaks from the API (the synthetic
 * 1000 peaks when the call fails), zoom doubling or halving between 0.25x and 16x, a ruler of 11
 * ticks, click (or keys) to seek, scrolling that follows the playhead, and the pending cuts,
 * mutes and silences drawn over the waveform.
 *
 * Performance: the canvas is only as wide as the viewport and draws the visible window from a
 * max-peak pyramid (a few hundred bars at any zoom); scrolling, playback and mark changes redraw
 * it in one animation frame without React; the component itself re-renders for zoom and data only.
 */
export function WaveformTimeline({ video, zoom, onZoomChange }: { video: Video; zoom: number; onZoomChange: (zoom: number) => void }) {
  if (video.hasAudio === false) {
    return (
      <div className="wc-timeline wc-timeline--empty" data-testid="no-audio">
        <p className="wc-muted">{NO_AUDIO_TEXT}</p>
      </div>
    );
  }
  return <Timeline video={video} zoom={zoom} onZoomChange={onZoomChange} />;
}

interface DrawState {
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
  /** when the listener last scrolled the timeline themselves (following the playhead waits after it) */
  userScrolledAt: number;
  /** the scroll position this component set last (its own scroll events are not the listener's) */
  ownScrollLeft: number | null;
}

/** After the listener scrolls the timeline, following the playhead waits this long (as the transcript's follow does). */
const FOLLOW_HOLD_MS = 3000;

function Timeline({ video, zoom, onZoomChange }: { video: Video; zoom: number; onZoomChange: (zoom: number) => void }) {
  const store = usePlaybackStore();
  const workspace = useWorkspaceStore();
  const viewportRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const playheadRef = useRef<HTMLDivElement>(null);
  const [viewportWidth, setViewportWidth] = useState(0);
  const points = waveformPoints(zoom * 100);
  const ready = video.status === 'completed' || video.status === 'failed';
  const waveform = useQuery<TimelinePeaks>({
    queryKey: videoKeys.waveform(video.id, video.mediaVersion, points),
    queryFn: ({ signal }) => fetchWaveform(video, points, signal),
    enabled: ready,
    placeholderData: keepPreviousData,
  });
  const pyramid = useMemo(() => (waveform.data ? buildPeakPyramid(waveform.data.peaks) : null), [waveform.data]);
  const playerDuration = usePlayback((s) => s.duration);
  const duration = waveform.data?.duration || video.duration || playerDuration;
  const contentWidth = Math.max(1, Math.round(viewportWidth * zoom));
  const currentSecond = usePlayback((s) => Math.floor(s.currentTime));

  // Everything a frame needs, read by draw() without React.
  const state = useRef<DrawState>({
    pyramid: null,
    duration: 0,
    contentWidth: 1,
    viewportWidth: 0,
    scrollLeft: 0,
    currentTime: 0,
    workspace: workspace.getSnapshot(),
    cutRanges: cutSkipRanges(workspace.getSnapshot().pendingCuts),
    silenceRanges: silenceSkipRanges(workspace.getSnapshot().pendingSilences),
    userScrolledAt: Number.NEGATIVE_INFINITY,
    ownScrollLeft: null,
  });
  const frame = useRef(0);
  const barsBuffer = useRef<Float32Array>(new Float32Array(0));

  /** The playhead is a DOM element: moving it is a transform, not a redraw. */
  const placePlayhead = useCallback(() => {
    const head = playheadRef.current;
    const s = state.current;
    if (!head) return;
    const x = s.duration > 0 ? (s.currentTime / s.duration) * s.contentWidth - s.scrollLeft : 0;
    head.style.transform = `translateX(${Math.round(x * 10) / 10}px)`;
    head.style.visibility = x >= -1 && x <= s.viewportWidth + 1 ? 'visible' : 'hidden';
  }, []);

  const draw = useCallback(() => {
    frame.current = 0;
    const canvas = canvasRef.current;
    const s = state.current;
    if (!canvas || s.viewportWidth <= 0) return;
    const ratio = window.devicePixelRatio || 1;
    const w = s.viewportWidth;
    const pixelW = Math.round(w * ratio);
    const pixelH = Math.round(HEIGHT * ratio);
    if (canvas.width !== pixelW) canvas.width = pixelW;
    if (canvas.height !== pixelH) canvas.height = pixelH;
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, w, HEIGHT);
    const window_ = visibleWindow(s.scrollLeft, w, s.contentWidth, s.duration);
    const pxPerSecond = s.duration > 0 ? s.contentWidth / s.duration : 0;
    const xOf = (t: number) => (t * pxPerSecond) - s.scrollLeft;
    const playX = xOf(s.currentTime);

    // ranges under the bars
    const ws = s.workspace;
    if (ws.range) fillRange(ctx, xOf(ws.range.start), xOf(ws.range.end), COLORS.range, null);
    for (const r of rangesInWindow(s.silenceRanges, window_.start, window_.end)) {
      fillRange(ctx, xOf(r.start), xOf(r.end), COLORS.silence, null);
    }
    for (const m of ws.pendingMutes) {
      if (m.endTime < window_.start || m.startTime > window_.end) continue;
      fillRange(ctx, xOf(m.startTime), xOf(m.endTime), MUTE_VOLUME_COLORS[m.level].fill, MUTE_VOLUME_COLORS[m.level].edge);
    }
    for (const r of rangesInWindow(s.cutRanges, window_.start, window_.end)) {
      fillRange(ctx, xOf(r.start), xOf(r.end), COLORS.cut, COLORS.cutEdge);
    }

    // bars of the visible window
    if (s.pyramid && s.contentWidth > 0) {
      const firstBar = Math.floor(s.scrollLeft / (BAR_WIDTH + BAR_GAP));
      const barCount = Math.ceil(w / (BAR_WIDTH + BAR_GAP)) + 1;
      const totalBars = Math.max(1, Math.floor(s.contentWidth / (BAR_WIDTH + BAR_GAP)));
      const from = firstBar / totalBars;
      const to = Math.min(1, (firstBar + barCount) / totalBars);
      const count = Math.max(0, Math.min(barCount, totalBars - firstBar));
      if (barsBuffer.current.length < count) barsBuffer.current = new Float32Array(count);
      const bars = peakBars(s.pyramid, from, to, count, barsBuffer.current);
      const mid = RULER_HEIGHT + WAVE_HEIGHT / 2;
      for (let i = 0; i < count; i += 1) {
        const x = (firstBar + i) * (BAR_WIDTH + BAR_GAP) - s.scrollLeft;
        const h = Math.max(1, Math.min(1, bars[i]!) * (WAVE_HEIGHT - 4));
        ctx.fillStyle = x + BAR_WIDTH <= playX ? COLORS.played : COLORS.bar;
        ctx.fillRect(x, mid - h / 2, BAR_WIDTH, h);
      }
    }

    // the ruler: 11 ticks across the visible window
    ctx.fillStyle = COLORS.ruler;
    ctx.font = '10px system-ui, sans-serif';
    ctx.textBaseline = 'top';
    const span = window_.end - window_.start;
    const ticks = rulerTicks(window_.start, window_.end);
    ticks.forEach((tick, i) => {
      const x = Math.round(tick.fraction * (w - 1)) + 0.5;
      ctx.fillStyle = COLORS.ruler;
      ctx.fillRect(x, 0, 1, i % 5 === 0 ? 8 : 5);
      const label = formatTickTime(tick.time, span);
      ctx.fillStyle = COLORS.rulerText;
      ctx.textAlign = i === 0 ? 'left' : i === ticks.length - 1 ? 'right' : 'center';
      ctx.fillText(label, Math.min(w - 1, Math.max(1, x)), 8);
    });

    placePlayhead();
  }, [placePlayhead]);

  const schedule = useCallback(() => {
    if (!frame.current) frame.current = requestAnimationFrame(draw);
  }, [draw]);

  useEffect(() => () => cancelAnimationFrame(frame.current), []);

  // viewport size
  useEffect(() => {
    const el = viewportRef.current;
    if (!el) return;
    setViewportWidth(el.clientWidth);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setViewportWidth(el.clientWidth));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  // data and geometry changes: redraw at once (tests and first paint see the canvas drawn)
  useEffect(() => {
    const s = state.current;
    s.pyramid = pyramid;
    s.duration = duration;
    s.contentWidth = contentWidth;
    s.viewportWidth = viewportWidth;
    s.scrollLeft = viewportRef.current?.scrollLeft ?? 0;
    s.currentTime = store.getSnapshot().currentTime;
    draw();
  }, [pyramid, duration, contentWidth, viewportWidth, store, draw]);

  // playback: follow the playhead, redraw the played colour and move the playhead
  useEffect(
    () =>
      store.subscribe(() => {
        const s = state.current;
        s.currentTime = store.getSnapshot().currentTime;
        const view = viewportRef.current;
        if (view && s.duration > 0 && performance.now() - s.userScrolledAt > FOLLOW_HOLD_MS) {
          const x = (s.currentTime / s.duration) * s.contentWidth;
          const next = followPlayhead(x, view.scrollLeft, s.viewportWidth, s.contentWidth);
          if (next !== null) {
            view.scrollLeft = next;
            s.scrollLeft = view.scrollLeft;
            s.ownScrollLeft = s.scrollLeft;
          }
        }
        placePlayhead();
        schedule();
      }),
    [store, schedule, placePlayhead],
  );

  // pending marks
  useEffect(
    () =>
      workspace.subscribe(() => {
        const s = state.current;
        const next = workspace.getSnapshot();
        if (next.pendingCuts !== s.workspace.pendingCuts) s.cutRanges = cutSkipRanges(next.pendingCuts);
        if (next.pendingSilences !== s.workspace.pendingSilences) s.silenceRanges = silenceSkipRanges(next.pendingSilences);
        s.workspace = next;
        schedule();
      }),
    [workspace, schedule],
  );

  // zooming keeps the playhead where it was in the viewport
  const previousZoom = useRef(zoom);
  useEffect(() => {
    const view = viewportRef.current;
    const before = previousZoom.current;
    previousZoom.current = zoom;
    if (!view || before === zoom || state.current.duration <= 0) return;
    const s = state.current;
    const x = (s.currentTime / s.duration) * contentWidth;
    const oldX = (s.currentTime / s.duration) * Math.max(1, Math.round(viewportWidth * before));
    const offset = oldX - view.scrollLeft;
    view.scrollLeft = Math.max(0, Math.min(contentWidth - viewportWidth, x - offset));
    s.scrollLeft = view.scrollLeft;
    s.ownScrollLeft = s.scrollLeft;
    schedule();
  }, [zoom, contentWidth, viewportWidth, schedule]);

  const onScroll = () => {
    const s = state.current;
    s.scrollLeft = viewportRef.current?.scrollLeft ?? 0;
    // a scroll the component did not make is the listener browsing: hold the follow for a while
    if (s.ownScrollLeft === null || Math.abs(s.scrollLeft - s.ownScrollLeft) > 1) s.userScrolledAt = performance.now();
    s.ownScrollLeft = null;
    schedule();
  };

  const timeAt = (event: MouseEvent<HTMLDivElement>) => {
    const view = viewportRef.current;
    if (!view || duration <= 0) return 0;
    const rect = view.getBoundingClientRect();
    const x = event.clientX - rect.left + view.scrollLeft;
    return Math.min(duration, Math.max(0, (x / contentWidth) * duration));
  };

  const onClick = (event: MouseEvent<HTMLDivElement>) => store.seek(timeAt(event));

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const now = store.getSnapshot().currentTime;
    if (event.key === '+' || event.key === '=') {
      event.preventDefault();
      onZoomChange(zoomIn(zoom));
      return;
    }
    if (event.key === '-' || event.key === '_') {
      event.preventDefault();
      onZoomChange(zoomOut(zoom));
      return;
    }
    const target =
      event.key === 'ArrowRight' ? now + KEY_SEEK_SECONDS
      : event.key === 'ArrowLeft' ? now - KEY_SEEK_SECONDS
      : event.key === 'Home' ? 0
      : event.key === 'End' ? duration
      : null;
    if (target === null) return;
    event.preventDefault();
    store.seek(target);
  };

  return (
    <div className="wc-timeline" data-testid="waveform-timeline" data-zoom={zoom}>
      <div className="wc-timeline__bar">
        <span className="wc-timeline__title">Timeline</span>
        <div className="wc-timeline__zoom" role="group" aria-label="Timeline zoom">
          <button
            type="button"
            className="wc-button wc-button--small"
            onClick={() => onZoomChange(zoomOut(zoom))}
            disabled={!canZoomOut(zoom)}
            aria-label="Zoom out"
            aria-keyshortcuts="-"
            data-testid="timeline-zoom-out"
          >
            −
          </button>
          <span className="wc-timeline__zoom-level" data-testid="timeline-zoom" aria-live="polite">
            {formatZoom(zoom)}
          </span>
          <button
            type="button"
            className="wc-button wc-button--small"
            onClick={() => onZoomChange(zoomIn(zoom))}
            disabled={!canZoomIn(zoom)}
            aria-label="Zoom in"
            aria-keyshortcuts="+"
            data-testid="timeline-zoom-in"
          >
            +
          </button>
        </div>
      </div>
      <div
        className="wc-timeline__viewport"
        ref={viewportRef}
        onScroll={onScroll}
        data-testid="timeline-viewport"
        role="slider"
        tabIndex={0}
        aria-label="Timeline"
        aria-valuemin={0}
        aria-valuemax={Math.round(duration)}
        aria-valuenow={Math.min(currentSecond, Math.round(duration))}
        aria-valuetext={`${formatTimestamp(currentSecond)} of ${formatTimestamp(duration)}`}
        onClick={onClick}
        onKeyDown={onKeyDown}
      >
        <div className="wc-timeline__content" style={{ width: `${contentWidth}px`, height: `${HEIGHT}px` }}>
          <div className="wc-timeline__layer" style={{ width: viewportWidth > 0 ? `${viewportWidth}px` : '100%', height: `${HEIGHT}px` }}>
            <canvas
              ref={canvasRef}
              className="wc-timeline__canvas"
              style={{ width: viewportWidth > 0 ? `${viewportWidth}px` : '100%', height: `${HEIGHT}px` }}
              data-testid="waveform-canvas"
              data-synthetic={waveform.data ? String(waveform.data.synthetic) : undefined}
              data-peaks={waveform.data?.peaks.length}
              aria-hidden="true"
            />
            <div ref={playheadRef} className="wc-timeline__playhead" data-testid="playhead" aria-hidden="true" />
          </div>
        </div>
      </div>
      {!ready ? <p className="wc-muted wc-timeline__note">The waveform appears once the video is processed.</p> : null}
    </div>
  );
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
