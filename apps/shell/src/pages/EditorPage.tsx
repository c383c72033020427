import { useCallback } from 'react';
import { useParams, useSearchParams } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import type { Video } from '@wordcut/contracts';
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
          title={videoId ? <VideoTitle videoId={videoId} /> : <span className="wc-muted">No video open</span>}
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

/** The query key of a video; the editor remote uses the same one, so both read one cached request. */
export const videoQueryKey = (videoId: string) => ['/api/videos', videoId] as const;

/**
 * The header's title: the video's title, or its original file name when the title
 * is empty. Until the video is known (or when it cannot be loaded) the id stands in.
 */
function VideoTitle({ videoId }: { videoId: string }) {
  const { data: video } = useQuery<Video>({ queryKey: videoQueryKey(videoId) });
  const name = video ? video.title.trim() || video.originalName : '';
  if (name) {
    return (
      <span className="wc-header__video" title={name} data-testid="header-title">
        {name}
      </span>
    );
  }
  return (
    <span className="wc-header__video" title={videoId} data-testid="header-title">
      Video <span className="wc-mono">{videoId}</span>
    </span>
  );
}
