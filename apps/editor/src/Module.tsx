import { useParams, useSearchParams } from 'react-router-dom';
import type { RemoteProps } from '@wordcut/ui';
import { Tooltip } from '@wordcut/ui';
import { ProbeCard } from './ProbeCard';

/**
 * The editor remote's one entry. For the walking skeleton it shows the video id of the
 * route, the 'Probe a media file' form and the 'Find Key Moments' action.
 */
export default function EditorModule(_props: RemoteProps) {
  const { videoId } = useParams();
  const [, setSearchParams] = useSearchParams();

  const openKeyClips = () => {
    setSearchParams((prev) => {
      const next = new URLSearchParams(prev);
      next.set('panel', 'keyclips');
      return next;
    });
  };

  return (
    <div className="wc-editor" data-testid="editor-remote">
      <div className="wc-editor__top">
        <div>
          <h1 className="wc-editor__heading">{videoId ? `Video ${videoId}` : 'Editor'}</h1>
          <p className="wc-muted">
            {videoId ? 'Edit this video through its transcript.' : 'Open a video, or probe a media file to see what it contains.'}
          </p>
        </div>
        <div className="wc-toolbar" role="toolbar" aria-label="Editor actions">
          <Tooltip content="Let AI suggest the most engaging moments of this video">
            <button type="button" className="wc-button" onClick={openKeyClips}>
              Find Key Moments
            </button>
          </Tooltip>
        </div>
      </div>
      <ProbeCard />
    </div>
  );
}
