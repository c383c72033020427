import type { Transcript, Video } from '@wordcut/contracts';
import { durationLabel, lastSavedLabel, nextZoomLevel, vttStatusLabel } from './footer';
import { usePlayback } from '../shared/playback';

export interface EditorFooterProps {
  video: Pick<Video, 'duration' | 'updatedAt'>;
  transcript?: Pick<Transcript, 'updatedAt'> | undefined;
  /** the configured transcript method of GET /api/vtt/status */
  vttMethod: string | undefined;
  zoom: number;
  onZoomChange: (zoom: number) => void;
}

/** The editor's footer: auto-save, last saved, VTT status, duration and the zoom level. */
export function EditorFooter({ video, transcript, vttMethod, zoom, onZoomChange }: EditorFooterProps) {
  const playerDuration = usePlayback((s) => s.duration);
  const duration = video.duration ?? (playerDuration > 0 ? playerDuration : null);
  const next = nextZoomLevel(zoom);
  return (
    <footer className="wc-editor-footer" data-testid="editor-footer">
      <span className="wc-editor-footer__item">
        <span className="wc-dot wc-dot--ok" aria-hidden="true" />
        Auto-save enabled
      </span>
      <span className="wc-editor-footer__item" data-testid="footer-last-saved">
        Last saved: {lastSavedLabel(transcript?.updatedAt ?? video.updatedAt)}
      </span>
      <span className="wc-editor-footer__item" data-testid="footer-vtt-status">
        VTT: {vttStatusLabel(vttMethod)}
      </span>
      <span className="wc-editor-footer__item" data-testid="footer-duration">
        Duration: {durationLabel(duration)}
      </span>
      <button
        type="button"
        className="wc-button wc-button--small wc-editor-footer__zoom"
        onClick={() => onZoomChange(next)}
        aria-label={`Zoom ${zoom}%, change to ${next}%`}
        data-testid="footer-zoom"
      >
        Zoom {zoom}%
      </button>
    </footer>
  );
}
