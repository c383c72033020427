import { useEffect, useId, useRef, useState } from 'react';
import {
  ZOOM_MAX,
  ZOOM_MIN,
  ZOOM_STEP,
  canZoomIn,
  canZoomOut,
  fitBox,
  isClick,
  isHeavyUpscale,
  panAllowed,
  panBy,
  panByKey,
  previewPictureBox,
  resetFraming,
  setZoom,
  zoomIn,
  zoomOut,
  type Framing,
  type ReframeGeometry,
  type SourceSize,
} from '@wordcut/edit-list';
import { framingHint } from './framing';

/** The clip's picture: the stream and the clip's span in it (seconds). */
export interface ClipSource {
  src: string;
  start: number;
  end: number;
}

/**
 * The dialog's preview: a box of the clip's ratio showing exactly the window the render keeps, the
 * picture dragged (or moved by the arrow keys) to pan; a press that moves under 5 px is a click that
 * plays or pauses the clip's span. Below it the zoom slider with out, in and Reset.
 */
export function ClipFraming(props: {
  source: ClipSource;
  framing: Framing;
  size: SourceSize | null;
  geometry: ReframeGeometry | null;
  onFraming: (framing: Framing) => void;
  onSize: (size: SourceSize) => void;
}) {
  const { source, framing, size, geometry, onFraming, onSize } = props;
  const stageRef = useRef<HTMLDivElement>(null);
  const videoRef = useRef<HTMLVideoElement>(null);
  const drag = useRef<{ x: number; y: number; start: Framing; moved: boolean } | null>(null);
  const [stage, setStage] = useState({ width: 0, height: 0 });
  const [playing, setPlaying] = useState(false);
  const zoomId = useId();
  const hintId = useId();

  useEffect(() => {
    const el = stageRef.current;
    if (!el) return;
    const measure = () => setStage({ width: el.clientWidth, height: el.clientHeight });
    measure();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    observer?.observe(el);
    return () => observer?.disconnect();
  }, []);

  // the element's own size wins over the probed one; the picture starts at the clip's first frame
  useEffect(() => {
    const media = videoRef.current;
    if (!media) return;
    const loaded = () => {
      if (media.videoWidth > 0 && media.videoHeight > 0) onSize({ width: media.videoWidth, height: media.videoHeight });
      if (Math.abs(media.currentTime - source.start) > 0.05) media.currentTime = source.start;
    };
    // the span plays once, then waits at its start
    const tick = () => {
      if (media.currentTime >= source.end) {
        media.pause();
        media.currentTime = source.start;
      }
    };
    const onPlay = () => setPlaying(true);
    const onPause = () => setPlaying(false);
    if (media.readyState >= 1) loaded();
    media.addEventListener('loadedmetadata', loaded);
    media.addEventListener('timeupdate', tick);
    media.addEventListener('play', onPlay);
    media.addEventListener('pause', onPause);
    return () => {
      media.removeEventListener('loadedmetadata', loaded);
      media.removeEventListener('timeupdate', tick);
      media.removeEventListener('play', onPlay);
      media.removeEventListener('pause', onPause);
    };
  }, [source.src, source.start, source.end, onSize]);

  const toggle = () => {
    const media = videoRef.current;
    if (!media) return;
    if (media.paused) {
      if (media.currentTime < source.start || media.currentTime >= source.end) media.currentTime = source.start;
      void media.play()?.catch(() => undefined);
    } else media.pause();
  };

  const ratio = geometry ? geometry.width / geometry.height : size ? size.width / size.height : 16 / 9;
  const frame = fitBox(stage.width, stage.height, ratio);
  const pannable = panAllowed(framing, size);
  const picture = geometry && size ? previewPictureBox(geometry, size, frame.width) : { left: 0, top: 0, width: frame.width, height: frame.height };

  const onPointerDown = (event: React.PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    event.currentTarget.setPointerCapture?.(event.pointerId);
    drag.current = { x: event.clientX, y: event.clientY, start: framing, moved: false };
  };
  const onPointerMove = (event: React.PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d) return;
    const dx = event.clientX - d.x;
    const dy = event.clientY - d.y;
    if (!d.moved && isClick(dx, dy)) return;
    d.moved = true;
    if (pannable) onFraming(panBy(d.start, size, dx, dy, frame.width));
  };
  const onPointerUp = (event: React.PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    drag.current = null;
    if (d && !d.moved && isClick(event.clientX - d.x, event.clientY - d.y)) toggle();
  };
  const onKeyDown = (event: React.KeyboardEvent<HTMLDivElement>) => {
    if (event.key === ' ') {
      event.preventDefault();
      toggle();
      return;
    }
    const next = panByKey(framing, size, event.key, event.shiftKey);
    if (next) {
      event.preventDefault();
      onFraming(next);
    }
  };

  return (
    <div className="wc-clip-framing" data-testid="clip-framing">
      <div className="wc-clip-framing__stage" ref={stageRef}>
        <div
          className={`wc-clip-framing__frame${pannable ? ' wc-clip-framing__frame--pannable' : ''}`}
          style={{ width: frame.width, height: frame.height }}
          role="group"
          aria-roledescription="clip preview"
          aria-label={`Clip preview, ${playing ? 'playing' : 'paused'}. ${pannable ? 'Drag or use the arrow keys to pan. ' : ''}Space plays or pauses.`}
          tabIndex={0}
          data-testid="clip-frame"
          data-offset-x={framing.offsetX.toFixed(3)}
          data-offset-y={framing.offsetY.toFixed(3)}
          data-zoom={framing.zoom.toFixed(1)}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={() => (drag.current = null)}
          onKeyDown={onKeyDown}
        >
          <div className="wc-clip-framing__picture" style={picture}>
            <video ref={videoRef} className="wc-clip-framing__video" src={source.src} muted playsInline preload="auto" data-testid="clip-preview-video" />
          </div>
        </div>
      </div>
      <div className="wc-clip-framing__zoom">
        <label htmlFor={zoomId} className="wc-field__label">
          Zoom
        </label>
        <button type="button" className="wc-button wc-button--small" onClick={() => onFraming(zoomOut(framing, size))} disabled={!canZoomOut(framing)} aria-label="Zoom out">
          −
        </button>
        <input
          id={zoomId}
          type="range"
          min={ZOOM_MIN}
          max={ZOOM_MAX}
          step={ZOOM_STEP}
          value={framing.zoom}
          aria-valuetext={`${framing.zoom.toFixed(1)}x`}
          aria-describedby={hintId}
          onChange={(event) => onFraming(setZoom(framing, Number(event.currentTarget.value), size))}
          data-testid="clip-zoom"
        />
        <button type="button" className="wc-button wc-button--small" onClick={() => onFraming(zoomIn(framing, size))} disabled={!canZoomIn(framing)} aria-label="Zoom in">
          +
        </button>
        <output className="wc-clip-framing__value" htmlFor={zoomId}>
          {framing.zoom.toFixed(1)}x
        </output>
        <button type="button" className="wc-button wc-button--small" onClick={() => onFraming(resetFraming(framing))} data-testid="clip-zoom-reset">
          Reset
        </button>
      </div>
      <p id={hintId} className="wc-muted wc-clip-framing__hint" data-testid="clip-framing-hint">
        {framingHint(framing, geometry)}
      </p>
      {geometry && isHeavyUpscale(geometry.upscale) ? (
        <p className="wc-clip-framing__hint wc-clip-framing__warning" role="status" data-testid="clip-upscale-warning">
          Heavy upscaling: the clip enlarges the video {geometry.upscale.toFixed(1)}x, so it may look soft.
        </p>
      ) : null}
    </div>
  );
}
