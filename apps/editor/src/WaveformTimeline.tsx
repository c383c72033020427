import { useEffect, useRef, useState } from 'react';
import type { KeyboardEvent, MouseEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Video } from '@wordcut/contracts';
import { fetchWaveform, videoKeys } from './api';
import type { TimelinePeaks } from './api';
import { usePlayback, usePlaybackStore } from './playback';
import { formatTimestamp } from './transcriptView';
import { drawBars, layoutBars, timeToX, waveformPoints, xToTime } from './waveform';

export const NO_AUDIO_TEXT = 'This video has no audio track.';
const HEIGHT = 88;
const KEY_SEEK_SECONDS = 5;
const COLORS = { bar: '#9aa9e8', played: '#3b5bdb' };

/** Width (px) of an element, kept current with a ResizeObserver. */
function useWidth<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.clientWidth);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setWidth(el.clientWidth));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}

/**
 * The waveform timeline (seed 000 §4 "Timeline"): peaks drawn on a canvas, a playhead that
 * follows playback without re-rendering React, click (or arrow keys) to seek, wider by the
 * footer's zoom level with the view scrolling to follow the playhead.
 */
export function WaveformTimeline({ video, zoom }: { video: Video; zoom: number }) {
  if (video.hasAudio === false) {
    return (
      <div className="wc-timeline wc-timeline--empty" data-testid="no-audio">
        <p className="wc-muted">{NO_AUDIO_TEXT}</p>
      </div>
    );
  }
  return <Timeline video={video} zoom={zoom} />;
}

function Timeline({ video, zoom }: { video: Video; zoom: number }) {
  const store = usePlaybackStore();
  const [viewport, viewportWidth] = useWidth<HTMLDivElement>();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const playheadRef = useRef<HTMLDivElement>(null);
  const points = waveformPoints(zoom);
  const ready = video.status === 'completed' || video.status === 'failed';
  const waveform = useQuery<TimelinePeaks>({
    queryKey: videoKeys.waveform(video.id, video.mediaVersion, points),
    queryFn: ({ signal }) => fetchWaveform(video, points, signal),
    enabled: ready,
  });
  const playerDuration = usePlayback((s) => s.duration);
  const duration = waveform.data?.duration || video.duration || playerDuration;
  const width = Math.round(viewportWidth * (zoom / 100));
  const currentSecond = usePlayback((s) => Math.floor(s.currentTime));

  // Draw the bars when the peaks or the size change.
  useEffect(() => {
    const canvas = canvasRef.current;
    const peaks = waveform.data?.peaks;
    if (!canvas || !peaks || width <= 0) return;
    const ratio = window.devicePixelRatio || 1;
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(HEIGHT * ratio);
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, width, HEIGHT);
    drawBars(ctx, layoutBars(peaks, width, HEIGHT), COLORS);
  }, [waveform.data, width]);

  // Move the playhead straight from the store, and keep it in view when zoomed in.
  useEffect(() => {
    const place = () => {
      const head = playheadRef.current;
      const view = viewport.current;
      if (!head) return;
      const x = timeToX(store.getSnapshot().currentTime, duration, width);
      head.style.transform = `translateX(${x}px)`;
      if (view && width > view.clientWidth && (x < view.scrollLeft || x > view.scrollLeft + view.clientWidth)) {
        view.scrollLeft = Math.max(0, x - view.clientWidth / 4);
      }
    };
    place();
    return store.subscribe(place);
  }, [store, duration, width, viewport]);

  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    const rect = event.currentTarget.getBoundingClientRect();
    store.seek(xToTime(event.clientX - rect.left, rect.width, duration));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const now = store.getSnapshot().currentTime;
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
    <div className="wc-timeline" data-testid="waveform-timeline">
      <div className="wc-timeline__viewport" ref={viewport}>
        <div
          className="wc-timeline__track"
          style={{ width: width > 0 ? `${width}px` : '100%', height: `${HEIGHT}px` }}
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
          <canvas
            ref={canvasRef}
            className="wc-timeline__canvas"
            style={{ width: width > 0 ? `${width}px` : '100%', height: `${HEIGHT}px` }}
            data-testid="waveform-canvas"
            data-synthetic={waveform.data ? String(waveform.data.synthetic) : undefined}
            data-peaks={waveform.data?.peaks.length}
            aria-hidden="true"
          />
          <div ref={playheadRef} className="wc-timeline__playhead" data-testid="playhead" aria-hidden="true" />
        </div>
      </div>
      {!ready ? <p className="wc-muted wc-timeline__note">The waveform appears once the video is processed.</p> : null}
    </div>
  );
}
