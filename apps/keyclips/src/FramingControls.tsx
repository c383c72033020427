import { useId } from 'react';
import type { ReframeGeometry } from '@wordcut/edit-list';
import { ZoomControl } from '@wordcut/ui';
import { RATIO_BUTTONS, chooseRatio, heavyUpscale, hintText, ratioDescription, type Framing, type SourceSize } from './framing';

/** The six ratio buttons, the zoom slider with zoom out / in / reset, the hint line and the heavy-upscale warning. */
export function FramingControls({ framing, size, geometry, onFraming }: { framing: Framing; size: SourceSize | null; geometry: ReframeGeometry | null; onFraming: (framing: Framing) => void }) {
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
      <ZoomControl
        framing={framing}
        size={size}
        onFraming={onFraming}
        describedBy={hintId}
        classNames={{ root: 'wc-kc-zoom', label: 'wc-kc-zoom__label', value: 'wc-kc-zoom__value' }}
        testIds={{ slider: 'keyclips-zoom', reset: 'keyclips-reset' }}
      />
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
