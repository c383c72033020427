import { useCallback } from 'react';
import { useParams, useSearchParams } from 'react-router-dom';
import { AppHeader } from './AppHeader';
import { KeyClipsPanel } from './KeyClipsPanel';
import { RemoteSlot } from '../RemoteSlot';

export const PANEL_PARAM = 'panel';
export const KEYCLIPS_PANEL = 'keyclips';

/**
 * The editor page of every editor route: header (logo, title, the publish remote's
 * actions), the editor remote below, and the KeyClips panel while `?panel=keyclips`.
 */
export function EditorPage() {
  const { videoId } = useParams();
  const [searchParams, setSearchParams] = useSearchParams();
  const panelOpen = searchParams.get(PANEL_PARAM) === KEYCLIPS_PANEL;

  const closePanel = useCallback(() => {
    setSearchParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.delete(PANEL_PARAM);
        return next;
      },
      { replace: true },
    );
  }, [setSearchParams]);

  return (
    <div className="wc-app">
      <div className="wc-app__content" inert={panelOpen}>
        <AppHeader
          title={
            videoId ? (
              <span className="wc-header__video" title={videoId}>
                Video <span className="wc-mono">{videoId}</span>
              </span>
            ) : (
              <span className="wc-muted">No video open</span>
            )
          }
          actions={<RemoteSlot name="publish" basePath="/" variant="inline" />}
        />
        <main className="wc-main" id="main">
          <RemoteSlot name="editor" basePath="/" />
        </main>
      </div>
      {panelOpen ? <KeyClipsPanel onClose={closePanel} /> : null}
    </div>
  );
}
