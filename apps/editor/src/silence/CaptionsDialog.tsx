import * as Dialog from '@radix-ui/react-dialog';
import { useEffect, useState } from 'react';
import {
  CAPTION_POSITIONS,
  CAPTION_POSITION_NAMES,
  CAPTION_PRESETS,
  CAPTION_PRESET_NAMES,
  CAPTION_SIZES,
  CAPTION_SIZE_NAMES,
  DEFAULT_CAPTION_STYLE,
  type CaptionStyle,
  type Video,
} from '@wordcut/contracts';
import { useRestoreFocus } from '@wordcut/ui';
import { JobEstimateLine } from '../shared/jobEstimate';

/**
 * 'Burn Captions': the version's caption setting. A style preset, a size and a position (with a
 * preview of how they look on a frame), then a render that draws the current words into the
 * picture; with captions already burned it says whether they still match the words, and offers to
 * take them out.
 */
export function CaptionsDialog({ open, videoId, burned, onBurn, onRemove, onClose }: {
  open: boolean;
  videoId: string;
  burned: Video['burnedCaptions'];
  onBurn: (style: CaptionStyle) => void;
  onRemove: () => void;
  onClose: () => void;
}) {
  const focus = useRestoreFocus();
  const [style, setStyle] = useState<CaptionStyle>(burned?.style ?? DEFAULT_CAPTION_STYLE);
  useEffect(() => {
    if (open) setStyle(burned?.style ?? DEFAULT_CAPTION_STYLE);
  }, [open, burned]);
  const choice = <K extends keyof CaptionStyle>(key: K, values: readonly CaptionStyle[K][], names: Readonly<Record<CaptionStyle[K], string>>, legend: string) => (
    <fieldset className="wc-levels wc-captions__choice">
      <legend>{legend}</legend>
      {values.map((value) => (
        <label key={value}>
          <input type="radio" name={`caption-${key}`} value={value} checked={style[key] === value} onChange={() => setStyle({ ...style, [key]: value })} /> {names[value]}
        </label>
      ))}
    </fieldset>
  );
  return (
    <Dialog.Root open={open} onOpenChange={(next) => (next ? undefined : onClose())}>
      <Dialog.Portal>
        <Dialog.Overlay className="wc-dialog-overlay" />
        <Dialog.Content className="wc-dialog wc-captions" data-testid="confirm-captions" {...focus}>
          <Dialog.Title className="wc-dialog__title">Burn Captions</Dialog.Title>
          <Dialog.Description className="wc-dialog__text">
            {burned
              ? burned.stale
                ? 'The burned captions no longer match the transcript: words were edited since. Burning again draws the current words.'
                : 'This version has burned captions that match the transcript. Change their style, or take them out.'
              : 'The transcript will be drawn into the picture as captions, in a new version of the video that then reloads. The player hides its own captions for a version with burned ones.'}
          </Dialog.Description>
          {choice('preset', CAPTION_PRESETS, CAPTION_PRESET_NAMES, 'Style')}
          {choice('size', CAPTION_SIZES, CAPTION_SIZE_NAMES, 'Size')}
          {choice('position', CAPTION_POSITIONS, CAPTION_POSITION_NAMES, 'Position')}
          <div className="wc-captions__preview" aria-hidden="true" data-position={style.position}>
            <span className={`wc-captions__sample wc-captions__sample--${style.preset} wc-captions__sample--${style.size}`}>This is how your captions look</span>
          </div>
          <JobEstimateLine videoId={videoId} kind="caption" />
          <div className="wc-dialog__actions">
            {burned ? (
              <button type="button" className="wc-button" onClick={onRemove} data-testid="remove-captions">
                Remove burned captions
              </button>
            ) : null}
            <Dialog.Close className="wc-button">Cancel</Dialog.Close>
            <button type="button" className="wc-button wc-button--primary" onClick={() => onBurn(style)}>
              {burned?.stale ? 'Update Burned Captions' : 'Burn Captions'}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
