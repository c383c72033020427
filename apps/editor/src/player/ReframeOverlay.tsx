import { useEffect, useState } from 'react';
import type { Video } from '@wordcut/contracts';
import { ASPECT_RATIOS } from '@wordcut/editor-core';
import { useWorkspace, useWorkspaceStore } from '../shared/workspace';
import { containedBox, cropBox } from './reframe';
import type { Box } from './reframe';

/**
 * The reframe overlay: over the player, the part of the picture a
 * clip of the chosen aspect ratio keeps, with the rest dimmed. It measures the player's <video>
 * (its box and the picture's intrinsic size) and follows resizes.
 */
export function ReframeOverlay({ video }: { video: Video }) {
  const ratio = useWorkspace((s) => s.reframe);
  const zoom = useWorkspace((s) => s.reframeZoom);
  const workspace = useWorkspaceStore();
  const [geometry, setGeometry] = useState<{ box: Box; picture: Box; srcW: number; srcH: number } | null>(null);

  useEffect(() => {
    if (!ratio) return;
    const media = document.querySelector<HTMLVideoElement>('[data-testid="video-player"]');
    if (!media) return;
    const measure = () => {
      const rect = media.getBoundingClientRect();
      const parent = media.closest('.wc-player')?.getBoundingClientRect();
      const srcW = media.videoWidth || video.width || 16;
      const srcH = media.videoHeight || video.height || 9;
      const picture = containedBox(rect.width, rect.height, srcW, srcH);
      const offsetX = parent ? rect.left - parent.left : 0;
      const offsetY = parent ? rect.top - parent.top : 0;
      setGeometry({ box: { x: offsetX, y: offsetY, width: rect.width, height: rect.height }, picture, srcW, srcH });
    };
    measure();
    media.addEventListener('loadedmetadata', measure);
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    observer?.observe(media);
    return () => {
      media.removeEventListener('loadedmetadata', measure);
      observer?.disconnect();
    };
  }, [ratio, video.width, video.height]);

  if (!ratio || !geometry) return null;
  const crop = cropBox(geometry.picture, geometry.srcW, geometry.srcH, ratio, zoom ?? undefined);
  const info = ASPECT_RATIOS.find((a) => a.ratio === ratio);
  const label = info && info.width ? `${info.name} ${ratio} · ${info.width}x${info.height}` : 'Original';
  return (
    <div
      className="wc-reframe"
      style={{ left: geometry.box.x, top: geometry.box.y, width: geometry.box.width, height: geometry.box.height }}
      data-testid="reframe-overlay"
      data-ratio={ratio}
      aria-hidden="true"
    >
      <div
        className="wc-reframe__frame"
        style={{ left: crop.x, top: crop.y, width: crop.width, height: crop.height }}
        data-testid="reframe-frame"
      >
        <span className="wc-reframe__label">{label}</span>
      </div>
      <button
        type="button"
        className="wc-reframe__close"
        aria-hidden="false"
        aria-label="Hide frame preview"
        onClick={() => workspace.update({ reframe: null, reframeZoom: null })}
      >
        ×
      </button>
    </div>
  );
}
