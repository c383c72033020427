import { useCallback, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { ExportRequestInput, Video } from '@wordcut/contracts';
import {
  CLONE_FAILED_TITLE,
  EXPORT_FAILED_TITLE,
  EXPORT_IN_PROGRESS_TITLE,
  EXPORT_STARTED_TITLE,
  ExportErrorCode,
  IdempotencyKeys,
  PUBLISH_PREREQUISITES_MISSING,
  VIDEO_CLONED_TEXT,
  VIDEO_CLONED_TITLE,
  buildExportBody,
  buildExportRequest,
  cloneRefusal,
  decodeTokenClaims,
  exportFailedToast,
  exportableItems,
  failedAttemptEnd,
  mergeMuteSegments,
  newIdempotencyKey,
  selectedItems,
  uploadingText,
  validateClonedToken,
} from '@wordcut/publishing';
import type { ExportRequestBody, ExportableItem, TimeRange } from '@wordcut/publishing';
import { getSessionToken, sessionStore, toast } from '@wordcut/ui';
import { PublishError, cloneVideo, createExport, fetchClips, fetchVideo, publishKeys, toExportError } from './api';
import type { ExportStarted, PublishClipRecord } from './api';
import { PROVIDER_NAME } from './provider';
import type { ExportJobControls } from './useExportJob';

/**
 * The publish action of the dialog: optionally clone first, then build the export request and
 * create the job; the progress dialog takes it from there.
 */

/** The video's processed mutes (contracts' `mutedSegments`) as time ranges, with the volume they were rendered at. */
export function processedMutes(video: Pick<Video, 'mutedSegments'>): TimeRange[] {
  return (video.mutedSegments ?? []).map((m) => ({ start: m.start, end: m.end, volume: m.volume }));
}

/** What the main video row counts: the mute segments the request carries (pending and processed, merged). */
export function muteSegmentCount(video: Pick<Video, 'mutedSegments'>, pendingMutes: readonly TimeRange[]): number {
  return mergeMuteSegments([...pendingMutes, ...processedMutes(video)]).length;
}

/** The items the dialog offers for a video, its clips and the editor's pending mutes. */
export function itemsFor(video: Video, clips: readonly PublishClipRecord[], pendingMutes: readonly TimeRange[]): ExportableItem[] {
  return exportableItems(video, clips, muteSegmentCount(video, pendingMutes));
}

/** 16 random hex digits for the idempotency key. */
function randomPart(): string {
  const bytes = new Uint8Array(8);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A new idempotency key for a request: the video id, a timestamp and a random part. */
const mintKey = (request: ExportRequestBody): string => newIdempotencyKey(request.videoId, Date.now(), randomPart());

export interface PublishInput {
  videoId: string;
  /** the provider session the current token is for (token claim), else the video's */
  sessionId: string | null;
  pendingMutes: readonly TimeRange[];
  job: Pick<ExportJobControls, 'start' | 'fail'>;
}

export interface PublishControls {
  cloning: boolean;
  exporting: boolean;
  cloneOn: boolean;
  setCloneOn: (on: boolean) => void;
  /** publishes the selected item keys; resolves true when the selection dialog may close */
  publish: (selected: ReadonlySet<string>) => Promise<boolean>;
}

/** createExport, recording how the attempt ended against the key it sent (see IdempotencyKeys). */
async function createKeyedExport(keys: IdempotencyKeys, request: ExportRequestInput): Promise<ExportStarted> {
  try {
    const started = await createExport(request);
    keys.settle(request.idempotencyKey, 'started');
    return started;
  } catch (error) {
    keys.settle(request.idempotencyKey, failedAttemptEnd(error instanceof PublishError ? error.status : null));
    throw error;
  }
}

const failToast = (description: string) => toast({ title: EXPORT_FAILED_TITLE, description, variant: 'destructive' });

export function usePublish({ videoId, sessionId, pendingMutes, job }: PublishInput): PublishControls {
  const queryClient = useQueryClient();
  const [cloning, setCloning] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [cloneOn, setCloneOn] = useState(false);
  // One memo for the header's lifetime, across the dialog's openings: a re-click of a request
  // whose outcome is unknown resends its key, so the server replays the export it may have
  // started instead of starting a second one.
  const [keys] = useState(() => new IdempotencyKeys(mintKey));

  /** The video and clips fetched again (a clone changes the session and resets upload statuses). */
  const refetch = useCallback(async (): Promise<{ video: Video; clips: PublishClipRecord[] }> => {
    const video = await queryClient.fetchQuery({ queryKey: publishKeys.video(videoId), queryFn: ({ signal }) => fetchVideo(videoId, signal), staleTime: 0 });
    const clips = await queryClient.fetchQuery({ queryKey: publishKeys.clips(videoId), queryFn: ({ signal }) => fetchClips(videoId, signal), staleTime: 0 });
    return { video, clips };
  }, [queryClient, videoId]);

  /**
   * The clone flow: clone, refresh the video data, mark the video as a clone, turn
   * the toggle off, toast 'Video cloned / Exporting to new video...'. Returns the new token and
   * session with the refreshed records, or null after a toast saying why not.
   */
  const cloneFirst = useCallback(
    async (video: Video): Promise<{ token: string; sessionId: string; video: Video; clips: PublishClipRecord[] } | null> => {
      const refusal = cloneRefusal(video);
      if (refusal) {
        toast({ ...refusal, variant: 'destructive' });
        return null;
      }
      setCloning(true);
      try {
        let cloned;
        try {
          cloned = await cloneVideo(video.id);
        } catch (error) {
          toast({ title: CLONE_FAILED_TITLE, description: toExportError(error, ExportErrorCode.CloneFailed).message, variant: 'destructive' });
          return null;
        }
        // the new video's token is the session's from now on (refreshes and resets use it)
        sessionStore.setToken(cloned.token);
        let fresh;
        try {
          fresh = await refetch();
        } catch (error) {
          failToast(error instanceof Error ? error.message : String(error));
          return null;
        }
        const marked: Video = { ...fresh.video, providerIsClone: true };
        queryClient.setQueryData(publishKeys.video(videoId), marked);
        setCloneOn(false);
        toast({ title: VIDEO_CLONED_TITLE, description: VIDEO_CLONED_TEXT });
        return { token: cloned.token, sessionId: cloned.sessionId, video: marked, clips: fresh.clips };
      } finally {
        setCloning(false);
      }
    },
    [queryClient, refetch, videoId],
  );

  const publish = useCallback(
    async (selected: ReadonlySet<string>): Promise<boolean> => {
      const current = queryClient.getQueryData<Video>(publishKeys.video(videoId));
      const clips = queryClient.getQueryData<PublishClipRecord[]>(publishKeys.clips(videoId)) ?? [];
      if (!current || !getSessionToken()) {
        failToast(PUBLISH_PREREQUISITES_MISSING);
        return false;
      }
      let video = current;
      let clipList = clips;
      let session = sessionId ?? current.providerSessionId;
      let tokenOverride: string | undefined;
      if (cloneOn) {
        const cloned = await cloneFirst(current);
        if (!cloned) return false;
        // the cloned token's session must be the (refreshed) video's before exporting
        const problem = validateClonedToken(decodeTokenClaims(cloned.token), cloned.video);
        if (problem) {
          failToast(problem);
          return false;
        }
        video = cloned.video;
        clipList = cloned.clips;
        session = cloned.sessionId;
        tokenOverride = cloned.token;
      }
      if (!session) {
        failToast(PUBLISH_PREREQUISITES_MISSING);
        return false;
      }
      const items = itemsFor(video, clipList, pendingMutes);
      const count = selectedItems(items, selected).length;
      const selection = { video, selected, items, clips: clipList, pendingMutes, processedMutes: processedMutes(video), sessionId: session };
      const idempotencyKey = keys.keyFor(buildExportBody(selection));
      const request = buildExportRequest({ ...selection, idempotencyKey, ...(tokenOverride ? { token: tokenOverride } : {}) });
      setExporting(true);
      try {
        const started = await createKeyedExport(keys, request);
        const token = getSessionToken();
        if (started.quota && token) sessionStore.setToken(token, { usage: started.quota });
        toast({ title: EXPORT_STARTED_TITLE, description: uploadingText(count, PROVIDER_NAME) });
        job.start(started.jobId);
        return true;
      } catch (error) {
        const detail = toExportError(error);
        if (detail.error === ExportErrorCode.ExportInProgress && detail.jobId) {
          // the video's previous export still runs (another tab, or before a reload): show that one
          toast({ title: EXPORT_IN_PROGRESS_TITLE, description: detail.message });
          job.start(detail.jobId);
          return true;
        }
        toast({ ...exportFailedToast(detail), variant: 'destructive' });
        if (detail.error === ExportErrorCode.QuotaExceeded) {
          // the progress dialog shows the limit and the upgrade link
          job.fail(detail);
          return true;
        }
        return false;
      } finally {
        setExporting(false);
      }
    },
    [cloneFirst, cloneOn, job, keys, pendingMutes, queryClient, sessionId, videoId],
  );

  return { cloning, exporting, cloneOn, setCloneOn, publish };
}
