import { useId } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { RemoteProps } from '@wordcut/ui';

/**
 * The KeyClips panel content. The shell frames it full-screen while the URL
 * has `?panel=keyclips`; closing removes that parameter (Escape is handled by the shell).
 */
export default function KeyClipsModule(_props: RemoteProps) {
  const titleId = useId();
  const [, setSearchParams] = useSearchParams();

  const close = () => {
    setSearchParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.delete('panel');
        return next;
      },
      { replace: true },
    );
  };

  return (
    <div className="wc-keyclips" data-testid="keyclips-remote" aria-labelledby={titleId}>
      <header className="wc-keyclips__header">
        <div>
          <h2 id={titleId} className="wc-keyclips__title">
            KeyClips
          </h2>
          <p className="wc-muted">AI-picked moments of your video, ready to export as clips.</p>
        </div>
        <button type="button" className="wc-button wc-button--icon" onClick={close} aria-label="Close KeyClips">
          <span aria-hidden="true">×</span>
        </button>
      </header>
      <div className="wc-empty">
        <div className="wc-empty__icon" aria-hidden="true">
          ✦
        </div>
        <h3 className="wc-empty__title">Discover Engaging Moments</h3>
        <p className="wc-muted">
          KeyClips reads the transcript and suggests 5 to 10 moments worth sharing. Open a video with a transcript to get
          started.
        </p>
      </div>
    </div>
  );
}
