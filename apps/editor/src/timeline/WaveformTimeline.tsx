import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { KeyboardEvent, MouseEvent } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Video } from '@wordcut/contracts';
import { buildPeakPyramid, canZoomIn, canZoomOut, cutSkipRanges, followPlayhead, formatZoom, silenceSkipRanges, zoomIn, zoomOut } from '@wordcut/editor-core';
import { videoKeys } from '../shared/api';
import { formatTimestamp } from '../shared/format';
import { usePlayback, usePlaybackStore } from '../shared/playback';
import { useWorkspaceStore } from '../shared/workspace';
import { fetchWaveform } from './api';
import type { TimelinePeaks } from './api';
import { TIMELINE_HEIGHT, drawTimeline } from './timelineDrawing';
import type { TimelineFrame } from './timelineDrawing';
import { waveformPoints } from './waveform';

export const NO_AUDIO_TEXT = 'This video has no audio track.';
const KEY_SEEK_SECONDS = 5;

/**
 * The advanced timeline: waveform peaks from the API (the synthetic 1000 peaks when the call
 * fails), zoom doubling or halving between 0.25x and 16x, a ruler of 11 ticks, click (or keys) to
 * seek, scrolling that follows the playhead, and the pending cuts, mutes and silences drawn over
 * the waveform (timelineDrawing.ts).
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

interface DrawState extends TimelineFrame {
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
    const drawn = state.current;
    if (!head) return;
    const x = drawn.duration > 0 ? (drawn.currentTime / drawn.duration) * drawn.contentWidth - drawn.scrollLeft : 0;
    head.style.transform = `translateX(${Math.round(x * 10) / 10}px)`;
    head.style.visibility = x >= -1 && x <= drawn.viewportWidth + 1 ? 'visible' : 'hidden';
  }, []);

  const draw = useCallback(() => {
    frame.current = 0;
    const canvas = canvasRef.current;
    if (!canvas || state.current.viewportWidth <= 0) return;
    if (drawTimeline(canvas, state.current, barsBuffer)) placePlayhead();
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
    const drawn = state.current;
    drawn.pyramid = pyramid;
    drawn.duration = duration;
    drawn.contentWidth = contentWidth;
    drawn.viewportWidth = viewportWidth;
    drawn.scrollLeft = viewportRef.current?.scrollLeft ?? 0;
    drawn.currentTime = store.getSnapshot().currentTime;
    draw();
  }, [pyramid, duration, contentWidth, viewportWidth, store, draw]);

  // playback: follow the playhead, redraw the played colour and move the playhead
  useEffect(
    () =>
      store.subscribe(() => {
        const drawn = state.current;
        drawn.currentTime = store.getSnapshot().currentTime;
        const view = viewportRef.current;
        if (view && drawn.duration > 0 && performance.now() - drawn.userScrolledAt > FOLLOW_HOLD_MS) {
          const x = (drawn.currentTime / drawn.duration) * drawn.contentWidth;
          const next = followPlayhead(x, view.scrollLeft, drawn.viewportWidth, drawn.contentWidth);
          if (next !== null) {
            view.scrollLeft = next;
            drawn.scrollLeft = view.scrollLeft;
            drawn.ownScrollLeft = drawn.scrollLeft;
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
        const drawn = state.current;
        const next = workspace.getSnapshot();
        if (next.pendingCuts !== drawn.workspace.pendingCuts) drawn.cutRanges = cutSkipRanges(next.pendingCuts);
        if (next.pendingSilences !== drawn.workspace.pendingSilences) drawn.silenceRanges = silenceSkipRanges(next.pendingSilences);
        drawn.workspace = next;
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
    const drawn = state.current;
    const x = (drawn.currentTime / drawn.duration) * contentWidth;
    const oldX = (drawn.currentTime / drawn.duration) * Math.max(1, Math.round(viewportWidth * before));
    const offset = oldX - view.scrollLeft;
    view.scrollLeft = Math.max(0, Math.min(contentWidth - viewportWidth, x - offset));
    drawn.scrollLeft = view.scrollLeft;
    drawn.ownScrollLeft = drawn.scrollLeft;
    schedule();
  }, [zoom, contentWidth, viewportWidth, schedule]);

  const onScroll = () => {
    const drawn = state.current;
    drawn.scrollLeft = viewportRef.current?.scrollLeft ?? 0;
    // a scroll the component did not make is the listener browsing: hold the follow for a while
    if (drawn.ownScrollLeft === null || Math.abs(drawn.scrollLeft - drawn.ownScrollLeft) > 1) drawn.userScrolledAt = performance.now();
    drawn.ownScrollLeft = null;
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
          <ZoomButton direction="out" symbol="−" shortcut="-" disabled={!canZoomOut(zoom)} onClick={() => onZoomChange(zoomOut(zoom))} />
          <span className="wc-timeline__zoom-level" data-testid="timeline-zoom" aria-live="polite">
            {formatZoom(zoom)}
          </span>
          <ZoomButton direction="in" symbol="+" shortcut="+" disabled={!canZoomIn(zoom)} onClick={() => onZoomChange(zoomIn(zoom))} />
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
        <div className="wc-timeline__content" style={{ width: `${contentWidth}px`, height: `${TIMELINE_HEIGHT}px` }}>
          <div className="wc-timeline__layer" style={{ width: viewportWidth > 0 ? `${viewportWidth}px` : '100%', height: `${TIMELINE_HEIGHT}px` }}>
            <canvas
              ref={canvasRef}
              className="wc-timeline__canvas"
              style={{ width: viewportWidth > 0 ? `${viewportWidth}px` : '100%', height: `${TIMELINE_HEIGHT}px` }}
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

/** The timeline's "Zoom in" / "Zoom out" button: a symbol, named by its label, with its shortcut key. */
function ZoomButton({ direction, symbol, shortcut, disabled, onClick }: { direction: 'in' | 'out'; symbol: string; shortcut: string; disabled: boolean; onClick: () => void }) {
  return (
    <button
      type="button"
      className="wc-button wc-button--small"
      onClick={onClick}
      disabled={disabled}
      aria-label={`Zoom ${direction}`}
      aria-keyshortcuts={shortcut}
      data-testid={`timeline-zoom-${direction}`}
    >
      {symbol}
    </button>
  );
}
