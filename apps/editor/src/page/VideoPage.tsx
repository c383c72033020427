import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router-dom';
import type { Transcript, Video, VttStatus } from '@wordcut/contracts';
import { DEFAULT_ZOOM } from '@wordcut/editor-core';
import { Tooltip, apiJson, editorBridge, toast } from '@wordcut/ui';
import { ClipsPanel } from '../clips/ClipsPanel';
import { ActiveJobs, userJobsKey } from '../jobs/ActiveJobs';
import { JobOverlay } from '../jobs/JobOverlay';
import { JobRunnerContext, useJobRunner } from '../jobs/jobRunner';
import { useRefreshVideo } from '../jobs/refresh';
import { storedJobSpec } from '../jobs/specs';
import { VideoPlayer } from '../player/VideoPlayer';
import { ReorderPanel } from '../reorder/ReorderPanel';
import { ReorderPreviewCard } from '../reorder/ReorderPreviewCard';
import {
  VIDEO_FETCH_RETRIES,
  VIDEO_FETCH_RETRY_DELAY_MS,
  isVideoPending,
  startTranscription,
  videoKeys,
  videoPath,
  videoPollInterval,
} from '../shared/api';
import { createPlaybackStore, PlaybackContext } from '../shared/playback';
import { ExportQuotaContext, useSessionExportQuota } from '../shared/quota';
import { browserStorage } from '../shared/storage';
import { incomingVersionOf } from '../shared/versions';
import { WorkspaceContext, WorkspaceStore, useWorkspace } from '../shared/workspace';
import { WaveformTimeline } from '../timeline/WaveformTimeline';
import { ExportForEditing } from '../transcript/ExportForEditing';
import { ReplaceTranscript } from '../transcript/ReplaceTranscript';
import { TranscriptPanel } from '../transcript/TranscriptPanel';
import { SilenceContext } from '../silence/silenceContext';
import { SilenceLayer, isSilenceJob } from '../silence/SilenceLayer';
import { SilenceStore } from '../silence/silenceState';
import { EditorFooter } from './EditorFooter';
import { QuotaBanner } from './QuotaBanner';
import { accessProblem, ConnectionErrorCard, VideoUnavailableCard, VttFailedCard, VttProcessingCard } from './StatusCards';

export const RETRY_FAILED_TITLE = 'Retry failed';
export const RETRY_FAILED_DESCRIPTION = 'Unable to restart transcription. Please try again.';

/**
 * The video's query: 3 retries 1 s apart, polled every 2 s while uploaded or processing.
 * A video that is not there for this page (404, 401) is not retried: no retry changes that answer.
 */
export function useVideo(videoId: string) {
  return useQuery<Video>({
    queryKey: videoKeys.video(videoId),
    queryFn: ({ signal }) => apiJson<Video>(videoPath(videoId), { signal }),
    retry: (failures, error) => accessProblem(error) === null && failures < VIDEO_FETCH_RETRIES,
    retryDelay: VIDEO_FETCH_RETRY_DELAY_MS,
    refetchInterval: (query) => videoPollInterval(query.state.data),
  });
}

/** The editor for one video: status cards, header, player, waveform, transcript and footer. */
export function VideoPage({ videoId, basePath = '/' }: { videoId: string; basePath?: string }) {
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
  const [workspace] = useState(() => new WorkspaceStore());
  const [silence] = useState(() => new SilenceStore(videoId));
  const [zoom, setZoom] = useState(DEFAULT_ZOOM);
  const exportQuota = useSessionExportQuota();
  usePublishEditorState(videoId, workspace);
  const refresh = useRefreshVideo(videoId);
  const runner = useJobRunner({
    videoId,
    storage: browserStorage(),
    specFor: (record) => storedJobSpec(record.type, refresh),
    // the version a finished job made becomes one undoable step when its transcript arrives
    beforeCompleted: (status, spec) => workspace.update({ incomingVersion: incomingVersionOf(status.result, spec.title) }),
  });
  // a job started or ended: the Active Jobs button learns of it now rather than at its next poll
  const runningJobId = runner.job?.spec.jobId;
  useEffect(() => {
    void queryClient.invalidateQueries({ queryKey: userJobsKey });
  }, [queryClient, runningJobId]);

  const retryTranscription = useMutation({
    mutationFn: () => startTranscription(videoId),
    onSuccess: (updated) => queryClient.setQueryData(videoKeys.video(videoId), updated),
    onError: () => toast({ title: RETRY_FAILED_TITLE, description: RETRY_FAILED_DESCRIPTION, variant: 'destructive' }),
  });

  if (!video) {
    return (
      <div className="wc-editor" data-testid="editor-remote">
        {videoQuery.isError && accessProblem(videoQuery.error) !== null ? (
          <VideoUnavailableCard status={accessProblem(videoQuery.error)!} homeHref={basePath} />
        ) : videoQuery.isError ? (
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
      <WorkspaceContext.Provider value={workspace}>
      <JobRunnerContext.Provider value={runner}>
      <ExportQuotaContext.Provider value={exportQuota}>
      <SilenceContext.Provider value={silence}>
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
          <EditorActions videoId={videoId} />
        </div>

        {isVideoPending(video) ? <VttProcessingCard video={video} /> : null}
        {video.status === 'failed' ? (
          <VttFailedCard video={video} retrying={retryTranscription.isPending} onRetry={() => retryTranscription.mutate()} />
        ) : null}
        <QuotaBanner videoId={video.id} />

        <div className="wc-workspace">
          <section className="wc-workspace__media" aria-label="Video and timeline">
            <VideoPlayer video={video} title={title} />
            <ReorderPreviewCard />
            <PreviewBanners />
            <WaveformTimeline video={video} zoom={zoom} onZoomChange={setZoom} />
            {video.status === 'completed' ? <ClipsPanel videoId={video.id} video={video} /> : null}
          </section>
          <EditorColumn video={video} transcript={transcriptQuery} />
        </div>
        <JobOverlay job={isSilenceJob(runner.job) ? null : runner.job} onCancel={() => void runner.cancel()} videoId={videoId} />
        <SilenceLayer duration={video.duration ?? Number.POSITIVE_INFINITY} mediaVersion={video.processedFilename ?? null} burnedCaptions={video.burnedCaptions} />
        <ActiveJobs />

        <EditorFooter
          video={video}
          transcript={transcriptQuery.data}
          vttMethod={vttStatus.data?.method}
          zoom={Math.round(zoom * 100)}
          onZoomChange={(percent) => setZoom(percent / 100)}
        />
      </div>
      </SilenceContext.Provider>
      </ExportQuotaContext.Provider>
      </JobRunnerContext.Provider>
      </WorkspaceContext.Provider>
    </PlaybackContext.Provider>
  );
}

/** The right column: the transcript editor, or the reorder list in reorder mode (the editor stays mounted, hidden, so nothing in it is lost). */
function EditorColumn({ video, transcript }: { video: Video; transcript: Parameters<typeof TranscriptPanel>[0]['transcript'] }) {
  const reordering = useWorkspace((s) => s.reorder !== null);
  return (
    <div className="wc-workspace__editor">
      <div hidden={reordering}>
        <TranscriptPanel video={video} transcript={transcript} />
      </div>
      {reordering ? (
        <section className="wc-card wc-transcript" aria-label="Reorder paragraphs">
          <h2 className="wc-card__title">Reorder Segments</h2>
          <ReorderPanel video={video} />
        </section>
      ) : null}
    </div>
  );
}

/** Status banners above the timeline: which preview modes are on (cuts skipped, mute preview, kept text only). */
function PreviewBanners() {
  const cuts = useWorkspace((s) => s.pendingCuts.length);
  const mutePreview = useWorkspace((s) => s.mutePreview);
  const range = useWorkspace((s) => s.range !== null);
  const silencePreview = useWorkspace((s) => s.silencePreview);
  if (cuts === 0 && !mutePreview && !range && !silencePreview) return null;
  return (
    <div className="wc-preview-banners" role="status" data-testid="preview-banners">
      {cuts > 0 ? <span className="wc-chip wc-chip--cut">Skipping {cuts} pending cut{cuts === 1 ? '' : 's'} during playback</span> : null}
      {mutePreview ? <span className="wc-chip wc-chip--mute">Mute preview on</span> : null}
      {silencePreview ? <span className="wc-chip wc-chip--cut">Skipping silences marked remove</span> : null}
      {range ? <span className="wc-chip wc-chip--keep">Playing the kept text only</span> : null}
    </div>
  );
}

/** Actions that open other parts of the app; the KeyClips panel is the shell's, opened by `?panel=keyclips`. */
function EditorActions({ videoId }: { videoId: string }) {
  const [, setSearchParams] = useSearchParams();
  const [exportOpen, setExportOpen] = useState(false);
  const [replaceOpen, setReplaceOpen] = useState(false);
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
      <Tooltip content="The edit as a timeline for another editor, or its captions and words">
        <button type="button" className="wc-button" onClick={() => setExportOpen(true)} data-testid="export-for-editing-button">
          Export for editing…
        </button>
      </Tooltip>
      <Tooltip content="Bring the words from a caption file timed on the original recording">
        <button type="button" className="wc-button" onClick={() => setReplaceOpen(true)} data-testid="replace-transcript-button">
          Replace transcript…
        </button>
      </Tooltip>
      <ExportForEditing open={exportOpen} onOpenChange={setExportOpen} videoId={videoId} />
      <ReplaceTranscript open={replaceOpen} onOpenChange={setReplaceOpen} videoId={videoId} />
    </div>
  );
}

/**
 * Tells the publish remote (editorBridge of @wordcut/ui, one instance per page) which video is open
 * and its pending mutes (from the workspace); the transcript editor adds its history length. Reset
 * on unmount.
 */
function usePublishEditorState(videoId: string, workspace: WorkspaceStore): void {
  useEffect(() => {
    const publish = () =>
      editorBridge.set({ videoId, pendingMutes: [...workspace.getSnapshot().pendingMutes] });
    publish();
    const unsubscribe = workspace.subscribe(publish);
    return () => {
      unsubscribe();
      editorBridge.reset();
    };
  }, [videoId, workspace]);
}
