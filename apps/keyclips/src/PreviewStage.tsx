import { useRef, type ReactNode } from 'react';
import { previewPictureBox, type ReframeGeometry } from '@wordcut/edit-list';
import { previewFrame, previewFrameLabel, useElementSize, useFramingGestures } from '@wordcut/ui';
import type { Framing, SourceSize } from './framing';

/**
 * The frame of the clip: a box of the export ratio, fitted into the stage, showing the part of the
 * picture the clip keeps (the video scaled and moved so the crop window fills the box). The picture
 * is dragged to pan (arrow keys too); a press that moves under 5 px is a click that toggles play.
 */
export function PreviewStage(props: {
  framing: Framing;
  size: SourceSize | null;
  geometry: ReframeGeometry | null;
  playing: boolean;
  onFraming: (framing: Framing) => void;
  onToggle: () => void;
  children: ReactNode;
}) {
  const { framing, size, geometry, playing, onFraming, onToggle } = props;
  const stageRef = useRef<HTMLDivElement>(null);
  const { width: frameWidth, height: frameHeight } = previewFrame(useElementSize(stageRef), geometry, size);
  const { pannable, handlers } = useFramingGestures({ framing, size, frameWidth, onFraming, onToggle });
  const videoStyle = geometry && size && geometry.crop.width > 0 ? previewPictureBox(geometry, size, frameWidth) : { left: 0, top: 0, width: '100%', height: '100%' };

  return (
    <div className="wc-kc-stage" ref={stageRef}>
      <div
        className={`wc-kc-stage__frame${pannable ? ' wc-kc-stage__frame--pannable' : ''}`}
        style={{ width: frameWidth, height: frameHeight }}
        role="group"
        aria-roledescription="clip preview"
        aria-label={previewFrameLabel(playing, pannable)}
        tabIndex={0}
        data-testid="keyclips-frame"
        data-offset-x={framing.offsetX.toFixed(3)}
        data-offset-y={framing.offsetY.toFixed(3)}
        {...handlers}
      >
        <div className="wc-kc-stage__picture" style={videoStyle}>
          {props.children}
        </div>
      </div>
    </div>
  );
}
