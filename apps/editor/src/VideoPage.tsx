import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router-dom';
import type { Transcript, Video, VttStatus } from '@wordcut/contracts';
import { Tooltip, apiJson, toast } from '@wordcut/ui';
import {
  VIDEO_FETCH_RETRIES,
  VIDEO_FETCH_RETRY_DELAY_MS,
  isVideoPending,
  startTranscription,
  videoKeys,
  videoPath,
  videoPollInterval,
} from './api';
import { EditorFooter } from './EditorFooter';
import { createPlaybackStore, PlaybackContext } from './playback';
import { ConnectionErrorCard, VttFailedCard, VttProcessingCard } from './StatusCards';
import { TranscriptPanel } from './TranscriptPanel';
import { VideoPlayer } from './VideoPlayer';
import { WaveformTimeline } from './WaveformTimeline';
import { ZOOM_LEVELS_START } from './footer';

export const RETRY_FAILED_TITLE = 'Retry failed';
export const RETRY_FAILED_DESCRIPTION = 'Unable to restart transcription. Please try again.';

/** The video's query: 3 retries 1 s apart, polled every 2 s while uploaded or processing (seed 002 §4, §7). */
export function useVideo(videoId: string) {
  return useQuery<Video>({
    queryKey: videoKeys.video(videoId),
    queryFn: ({ signal }) => apiJson<Video>(videoPath(videoId), { signal }),
    retry: VIDEO_FETCH_RETRIES,
    retryDelay: VIDEO_FETCH_RETRY_DELAY_MS,
    refetchInterval: (query) => videoPollInterval(query.state.data),
  });
}

/** The editor for one video: status cards, header, player, waveform, transcript and footer. */
export function VideoPage({ videoId }: { videoId: string }) {
  const queryClient = useQueryClient();
  const videoQuery = useVideo(videoId);
  const video = videoQuery.data;
  const vttStatus = useQuery<VttStatus>({ queryKey: videoKeys.vttStatus });
  const transcriptQuery = useQuery<Transcript>({
    queryKey: videoKeys.transcript(videoId),
    queryFn: ({ signal }) => apiJson<Transcript>(`${videoPath(videoId)}/transcript`, { signal }),
    enabled: video?.status === 'completed',
  });
  const [store] = useState(createPlaybackStore);
  const [zoom, setZoom] = useState(ZOOM_LEVELS_START);

  const retryTranscription = useMutation({
    mutationFn: () => startTranscription(videoId),
    onSuccess: (updated) => queryClient.setQueryData(videoKeys.video(videoId), updated),
    onError: () => toast({ title: RETRY_FAILED_TITLE, description: RETRY_FAILED_DESCRIPTION, variant: 'destructive' }),
  });

  if (!video) {
    return (
      <div className="wc-editor" data-testid="editor-remote">
        {videoQuery.isError ? (
          <ConnectionErrorCard error={videoQuery.error} retrying={videoQuery.isFetching} onRetry={() => void videoQuery.refetch()} />
        ) : (
          <p className="wc-muted wc-centered" role="status" data-testid="video-loading">
            Loading video…
          </p>
        )}
      </div>
    );
  }

  const title = video.title || video.originalName;
  return (
    <PlaybackContext.Provider value={store}>
      <div className="wc-editor wc-video-page" data-testid="editor-remote" data-video-status={video.status}>
        <div className="wc-editor__top">
          <div className="wc-editor__title">
            <h1 className="wc-editor__heading" data-testid="video-title">
              {title}
            </h1>
            <span className={`wc-badge wc-badge--video-${video.status}`} data-testid="video-status">
              {video.status}
            </span>
          </div>
          <EditorActions />
        </div>

        {isVideoPending(video) ? <VttProcessingCard video={video} /> : null}
        {video.status === 'failed' ? (
          <VttFailedCard video={video} retrying={retryTranscription.isPending} onRetry={() => retryTranscription.mutate()} />
        ) : null}

        <div className="wc-workspace">
          <section className="wc-workspace__media" aria-label="Video and timeline">
            <VideoPlayer video={video} title={title} />
            <WaveformTimeline video={video} zoom={zoom} />
          </section>
          <TranscriptPanel video={video} transcript={transcriptQuery} />
        </div>

        <EditorFooter
          video={video}
          transcript={transcriptQuery.data}
          vttMethod={vttStatus.data?.method}
          zoom={zoom}
          onZoomChange={setZoom}
        />
      </div>
    </PlaybackContext.Provider>
  );
}

/** Actions that open other parts of the app; the KeyClips panel is the shell's, opened by `?panel=keyclips`. */
function EditorActions() {
  const [, setSearchParams] = useSearchParams();
  const openKeyClips = () => {
    setSearchParams((prev) => {
      const next = new URLSearchParams(prev);
      next.set('panel', 'keyclips');
      return next;
    });
  };
  return (
    <div className="wc-toolbar" role="toolbar" aria-label="Editor actions">
      <Tooltip content="Let AI suggest the most engaging moments of this video">
        <button type="button" className="wc-button" onClick={openKeyClips}>
          Find Key Moments
        </button>
      </Tooltip>
    </div>
  );
}
