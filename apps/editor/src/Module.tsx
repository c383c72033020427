import { useParams } from 'react-router-dom';
import type { RemoteProps } from '@wordcut/ui';
import { EntryPage, SessionFailed, SessionLoading } from './entry/EntryPage';
import { EditorStyles } from './shared/styles';
import { useProviderSession } from './entry/useProviderSession';
import { VideoPage } from './page/VideoPage';

/**
 * The editor remote's one entry, for every editor route: a provider session
 * opened from `?token=`, the video page for a route with a video id, else the entry page.
 */
export default function EditorModule({ basePath }: RemoteProps) {
  const { videoId } = useParams();
  const session = useProviderSession(basePath);

  let content;
  if (session.state.phase === 'loading') content = <SessionLoading />;
  else if (session.state.phase === 'failed') content = <SessionFailed message={session.state.message} onRetry={session.retry} />;
  else if (videoId) content = <VideoPage key={videoId} videoId={videoId} basePath={basePath} />;
  else content = <EntryPage basePath={basePath} />;

  return (
    <>
      <EditorStyles />
      {content}
    </>
  );
}
