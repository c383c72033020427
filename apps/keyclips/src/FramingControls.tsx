import { useId } from 'react';
import { ZOOM_MAX, ZOOM_MIN, ZOOM_STEP, type ReframeGeometry } from '@wordcut/edit-list';
import {
  RATIO_BUTTONS,
  canZoomIn,
  canZoomOut,
  chooseRatio,
  heavyUpscale,
  hintText,
  ratioDescription,
  resetFraming,
  setZoom,
  zoomIn,
  zoomOut,
  type Framing,
  type SourceSize,
} from './framing';

/** The six ratio buttons, the zoom slider with zoom out / in / reset, the hint line and the heavy-upscale warning. */
export function FramingControls({ framing, size, geometry, onFraming }: { framing: Framing; size: SourceSize | null; geometry: ReframeGeometry | null; onFraming: (framing: Framing) => void }) {
  const zoomId = useId();
  const hintId = useId();
  return (
    <div className="wc-kc-controls">
      <div className="wc-kc-ratios" role="group" aria-label="Aspect ratio">
        {RATIO_BUTTONS.map((ratio) => {
          const { name, size: sizeText } = ratioDescription(ratio);
          return (
            <button
              key={ratio}
              type="button"
              className="wc-kc-ratio"
              aria-pressed={framing.ratio === ratio}
              onClick={() => onFraming(chooseRatio(framing, ratio, size))}
              data-testid={`keyclips-ratio-${ratio}`}
            >
              <span className="wc-kc-ratio__id">{ratio}</span>
              <span className="wc-kc-ratio__name">
                {name === ratio ? sizeText : `${name} · ${sizeText}`}
              </span>
            </button>
          );
        })}
      </div>
      <div className="wc-kc-zoom">
        <label htmlFor={zoomId} className="wc-kc-zoom__label">
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
          data-testid="keyclips-zoom"
        />
        <button type="button" className="wc-button wc-button--small" onClick={() => onFraming(zoomIn(framing, size))} disabled={!canZoomIn(framing)} aria-label="Zoom in">
          +
        </button>
        <output className="wc-kc-zoom__value" htmlFor={zoomId}>
          {framing.zoom.toFixed(1)}x
        </output>
        <button type="button" className="wc-button wc-button--small" onClick={() => onFraming(resetFraming(framing))} data-testid="keyclips-reset">
          Reset
        </button>
      </div>
      <p id={hintId} className="wc-kc-hint" data-testid="keyclips-hint">
        {hintText(framing, size, geometry)}
      </p>
      {heavyUpscale(geometry) ? (
        <p className="wc-kc__notice wc-kc__notice--warning" role="status" data-testid="keyclips-upscale-warning">
          <strong>Heavy upscaling:</strong> this clip enlarges the video {geometry!.upscale.toFixed(1)}x, so it may look soft. Zoom out or choose
          a ratio closer to the video&apos;s own.
        </p>
      ) : null}
    </div>
  );
}
