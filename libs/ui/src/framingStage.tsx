import { useEffect, useId, useRef, useState, type KeyboardEvent, type PointerEvent, type RefObject } from 'react';
import {
  ZOOM_MAX,
  ZOOM_MIN,
  ZOOM_STEP,
  canZoomIn,
  canZoomOut,
  fitBox,
  isClick,
  panAllowed,
  panBy,
  panByKey,
  resetFraming,
  setZoom,
  zoomIn,
  zoomOut,
  type Framing,
  type ReframeGeometry,
  type SourceSize,
} from '@wordcut/edit-list';

/** The element's client size, kept current while it resizes. */
export function useElementSize(ref: RefObject<HTMLElement | null>): { width: number; height: number } {
  const [size, setSize] = useState({ width: 0, height: 0 });
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setSize({ width: el.clientWidth, height: el.clientHeight });
    measure();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    observer?.observe(el);
    return () => observer?.disconnect();
  }, [ref]);
  return size;
}

/** The preview frame's box in its stage: the export ratio (or the source's) fitted inside. */
export function previewFrame(stage: { width: number; height: number }, geometry: ReframeGeometry | null, size: SourceSize | null) {
  const ratio = geometry ? geometry.width / geometry.height : size ? size.width / size.height : 16 / 9;
  return fitBox(stage.width, stage.height, ratio);
}

/**
 * The gestures of a clip preview frame: dragging the picture (or the arrow keys, Shift for bigger
 * steps) pans when panning can move the window; a press that moves under 5 px, Space or Enter
 * toggles play.
 */
export function useFramingGestures(o: { framing: Framing; size: SourceSize | null; frameWidth: number; onFraming: (framing: Framing) => void; onToggle: () => void }) {
  const { framing, size, frameWidth, onFraming, onToggle } = o;
  const drag = useRef<{ x: number; y: number; start: Framing; moved: boolean } | null>(null);
  const pannable = panAllowed(framing, size);
  const handlers = {
    onPointerDown: (event: PointerEvent<HTMLElement>) => {
      if (event.button !== 0) return;
      event.currentTarget.setPointerCapture?.(event.pointerId);
      drag.current = { x: event.clientX, y: event.clientY, start: framing, moved: false };
    },
    onPointerMove: (event: PointerEvent<HTMLElement>) => {
      const press = drag.current;
      if (!press) return;
      const dx = event.clientX - press.x;
      const dy = event.clientY - press.y;
      if (!press.moved && isClick(dx, dy)) return;
      press.moved = true;
      if (pannable) onFraming(panBy(press.start, size, dx, dy, frameWidth));
    },
    onPointerUp: (event: PointerEvent<HTMLElement>) => {
      const press = drag.current;
      drag.current = null;
      if (press && !press.moved && isClick(event.clientX - press.x, event.clientY - press.y)) onToggle();
    },
    onPointerCancel: () => {
      drag.current = null;
    },
    onKeyDown: (event: KeyboardEvent<HTMLElement>) => {
      if (event.key === ' ' || event.key === 'Enter') {
        event.preventDefault();
        onToggle();
        return;
      }
      const next = panByKey(framing, size, event.key, event.shiftKey);
      if (next) {
        event.preventDefault();
        onFraming(next);
      }
    },
  };
  return { pannable, handlers };
}

/** The words a preview frame says of itself to assistive technology. */
export function previewFrameLabel(playing: boolean, pannable: boolean): string {
  return `Clip preview, ${playing ? 'playing' : 'paused'}. ${pannable ? 'Drag or use the arrow keys to pan. ' : ''}Space plays or pauses.`;
}

/** The zoom slider (1 to 2.5, step 0.1) with zoom out, zoom in, the value and Reset. */
export function ZoomControl(props: {
  framing: Framing;
  size: SourceSize | null;
  onFraming: (framing: Framing) => void;
  /** the hint line the slider is described by */
  describedBy: string;
  classNames: { root: string; label: string; value: string };
  testIds: { slider: string; reset: string };
}) {
  const { framing, size, onFraming, describedBy, classNames, testIds } = props;
  const zoomId = useId();
  return (
    <div className={classNames.root}>
      <label htmlFor={zoomId} className={classNames.label}>
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
        aria-describedby={describedBy}
        onChange={(event) => onFraming(setZoom(framing, Number(event.currentTarget.value), size))}
        data-testid={testIds.slider}
      />
      <button type="button" className="wc-button wc-button--small" onClick={() => onFraming(zoomIn(framing, size))} disabled={!canZoomIn(framing)} aria-label="Zoom in">
        +
      </button>
      <output className={classNames.value} htmlFor={zoomId}>
        {framing.zoom.toFixed(1)}x
      </output>
      <button type="button" className="wc-button wc-button--small" onClick={() => onFraming(resetFraming(framing))} data-testid={testIds.reset}>
        Reset
      </button>
    </div>
  );
}
