import { useEffect, useId, useRef, useState } from 'react';
import { isHeavyUpscale, previewPictureBox, type Framing, type ReframeGeometry, type SourceSize } from '@wordcut/edit-list';
import { ZoomControl, previewFrame, previewFrameLabel, useElementSize, useFramingGestures } from '@wordcut/ui';
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
  const stage = useElementSize(stageRef);
  const [playing, setPlaying] = useState(false);
  const hintId = useId();

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

  const frame = previewFrame(stage, geometry, size);
  const { pannable, handlers } = useFramingGestures({ framing, size, frameWidth: frame.width, onFraming, onToggle: toggle });
  const picture = geometry && size ? previewPictureBox(geometry, size, frame.width) : { left: 0, top: 0, width: frame.width, height: frame.height };

  return (
    <div className="wc-clip-framing" data-testid="clip-framing">
      <div className="wc-clip-framing__stage" ref={stageRef}>
        <div
          className={`wc-clip-framing__frame${pannable ? ' wc-clip-framing__frame--pannable' : ''}`}
          style={{ width: frame.width, height: frame.height }}
          role="group"
          aria-roledescription="clip preview"
          aria-label={previewFrameLabel(playing, pannable)}
          tabIndex={0}
          data-testid="clip-frame"
          data-offset-x={framing.offsetX.toFixed(3)}
          data-offset-y={framing.offsetY.toFixed(3)}
          data-zoom={framing.zoom.toFixed(1)}
          {...handlers}
        >
          <div className="wc-clip-framing__picture" style={picture}>
            <video ref={videoRef} className="wc-clip-framing__video" src={source.src} muted playsInline preload="auto" data-testid="clip-preview-video" />
          </div>
        </div>
      </div>
      <ZoomControl
        framing={framing}
        size={size}
        onFraming={onFraming}
        describedBy={hintId}
        classNames={{ root: 'wc-clip-framing__zoom', label: 'wc-field__label', value: 'wc-clip-framing__value' }}
        testIds={{ slider: 'clip-zoom', reset: 'clip-zoom-reset' }}
      />
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
