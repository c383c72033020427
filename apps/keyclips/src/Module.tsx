import { useCallback, useId, useState } from 'react';
import { useParams, useSearchParams } from 'react-router-dom';
import type { RemoteProps } from '@wordcut/ui';
import { GuideModal } from './GuideModal';
import { KeyClipsWorkspace } from './KeyClipsWorkspace';
import { KeyClipsStyles } from './styles';

/**
 * The KeyClips panel content. The shell frames it full-screen while the URL has `?panel=keyclips`
 * (dialog semantics, focus kept inside, Escape); closing removes that parameter.
 */
export default function KeyClipsModule(_props: RemoteProps) {
  const titleId = useId();
  const { videoId } = useParams();
  const [, setSearchParams] = useSearchParams();
  const [guideOpen, setGuideOpen] = useState(false);

  const close = useCallback(() => {
    setSearchParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.delete('panel');
        return next;
      },
      { replace: true },
    );
  }, [setSearchParams]);

  return (
    <div className="wc-kc" data-testid="keyclips-remote" aria-labelledby={titleId}>
      <KeyClipsStyles />
      <div className="wc-kc__page" inert={guideOpen}>
        <header className="wc-kc__header">
          <div>
            <h2 id={titleId} className="wc-kc__title">
              KeyClips
            </h2>
            <p className="wc-muted wc-kc__subtitle">AI-picked moments of your video, ready to export as clips.</p>
          </div>
          <div className="wc-actions">
            <button type="button" className="wc-button" onClick={() => setGuideOpen(true)} data-testid="keyclips-guide-open">
              Guide
            </button>
            <button type="button" className="wc-button wc-button--icon" onClick={close} aria-label="Close KeyClips">
              <span aria-hidden="true">×</span>
            </button>
          </div>
        </header>
        {videoId ? (
          <KeyClipsWorkspace key={videoId} videoId={videoId} onDone={close} />
        ) : (
          <div className="wc-empty">
            <h3 className="wc-empty__title">Discover Engaging Moments</h3>
            <p className="wc-muted">Open a video with a transcript to find its key moments.</p>
          </div>
        )}
      </div>
      {guideOpen ? <GuideModal onClose={() => setGuideOpen(false)} /> : null}
    </div>
  );
}
