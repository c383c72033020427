import { useParams } from 'react-router-dom';
import type { RemoteProps } from '@wordcut/ui';
import { EntryPage, SessionFailed, SessionLoading } from './EntryPage';
import { EditorStyles } from './styles';
import { useProviderSession } from './useProviderSession';
import { VideoPage } from './VideoPage';

/**
 * The editor remote's one entry, for every editor route (seed 002 §2): a provider session
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
