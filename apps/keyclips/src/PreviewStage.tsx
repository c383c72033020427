import { useEffect, useRef, useState, type ReactNode } from 'react';
import { previewPictureBox, type ReframeGeometry } from '@wordcut/edit-list';
import { isClick, panAllowed, panBy, panByKey, type Framing, type SourceSize } from './framing';

interface StageSize {
  width: number;
  height: number;
}

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
  const [stage, setStage] = useState<StageSize>({ width: 0, height: 0 });
  const drag = useRef<{ x: number; y: number; start: Framing; moved: boolean } | null>(null);

  useEffect(() => {
    const el = stageRef.current;
    if (!el) return;
    const measure = () => setStage({ width: el.clientWidth, height: el.clientHeight });
    measure();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    observer?.observe(el);
    return () => observer?.disconnect();
  }, []);

  const ratio = geometry ? geometry.width / geometry.height : size ? size.width / size.height : 16 / 9;
  const frameWidth = Math.max(0, Math.min(stage.width, stage.height * ratio));
  const frameHeight = ratio > 0 ? frameWidth / ratio : 0;
  const pannable = panAllowed(framing, size);
  const videoStyle = geometry && size && geometry.crop.width > 0 ? previewPictureBox(geometry, size, frameWidth) : { left: 0, top: 0, width: '100%', height: '100%' };

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
    if (pannable) onFraming(panBy(d.start, size, dx, dy, frameWidth));
  };
  const onPointerUp = (event: React.PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    drag.current = null;
    if (d && !d.moved && isClick(event.clientX - d.x, event.clientY - d.y)) onToggle();
  };
  const onKeyDown = (event: React.KeyboardEvent<HTMLDivElement>) => {
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
  };

  return (
    <div className="wc-kc-stage" ref={stageRef}>
      <div
        className={`wc-kc-stage__frame${pannable ? ' wc-kc-stage__frame--pannable' : ''}`}
        style={{ width: frameWidth, height: frameHeight }}
        role="group"
        aria-roledescription="clip preview"
        aria-label={`Clip preview, ${playing ? 'playing' : 'paused'}. ${pannable ? 'Drag or use the arrow keys to pan. ' : ''}Space plays or pauses.`}
        tabIndex={0}
        data-testid="keyclips-frame"
        data-offset-x={framing.offsetX.toFixed(3)}
        data-offset-y={framing.offsetY.toFixed(3)}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={() => (drag.current = null)}
        onKeyDown={onKeyDown}
      >
        <div className="wc-kc-stage__picture" style={videoStyle}>
          {props.children}
        </div>
      </div>
    </div>
  );
}
