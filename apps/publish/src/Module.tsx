import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { matchPath, useLocation } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { EDITOR_ROUTES } from '@wordcut/contracts';
import type { Video } from '@wordcut/contracts';
import { PUBLISH_BUTTON_LABEL, differsFromOriginal, exportsAvailable, publishButtonState, revertVisible } from '@wordcut/publishing';
import { Tooltip, refreshSessionUsage, useEditorBridge, useSession } from '@wordcut/ui';
import type { RemoteProps } from '@wordcut/ui';
import { clipsProcessing, publishKeys, useClips, useVideo } from './api';
import type { PublishClipRecord } from './api';
import { ExportProgressDialog } from './ExportProgressDialog';
import { PublishDialog } from './PublishDialog';
import { RevertFlow } from './RevertFlow';
import { PublishStyles } from './styles';
import { useExportJob } from './useExportJob';
import { itemsFor, usePublish } from './usePublish';

/**
 * The publish remote's one entry, rendered by the shell in the editor page header's actions slot
 * 'Revert to Original' and 'Publish changes', only for a video linked to a
 * provider session, with their dialogs. The slot gets no route params, so the video id is read
 * from the address (the editor routes of the contracts), else from what the editor reports.
 */

/** The video id of an editor route ('/editor/:videoId', '/videos/:videoId', '/video/:videoId'). */
export function videoIdFromPath(pathname: string, basePath = '/'): string | null {
  const base = basePath.replace(/\/+$/, '');
  const path = base && pathname.startsWith(base) ? pathname.slice(base.length) || '/' : pathname;
  for (const route of EDITOR_ROUTES) {
    const id = matchPath({ path: route, end: true }, path)?.params['videoId'];
    if (id) return id;
  }
  return null;
}

export default function PublishModule({ basePath }: RemoteProps) {
  const location = useLocation();
  const bridge = useEditorBridge();
  const videoId = videoIdFromPath(location.pathname, basePath) ?? bridge.videoId;
  return (
    <>
      <PublishStyles />
      <div className="wc-pub-actions" data-testid="publish-actions">
        {videoId ? <HeaderActions key={videoId} videoId={videoId} /> : null}
      </div>
    </>
  );
}

/** The last defined value, so a refetch after a cache reset does not make the actions blink. */
function useLastDefined<T>(value: T | undefined): T | undefined {
  const last = useRef<T | undefined>(value);
  if (value !== undefined) last.current = value;
  return value ?? last.current;
}

const NO_CLIPS: PublishClipRecord[] = [];
/** A save reaches the server a moment after its history entry: refetch shortly after, and once more for slow saves. */
const HISTORY_REFETCH_DELAYS_MS = [800, 3000];
const NO_MUTES: never[] = [];

function HeaderActions({ videoId }: { videoId: string }) {
  const queryClient = useQueryClient();
  const session = useSession();
  const bridge = useEditorBridge();
  const video = useLastDefined<Video>(useVideo(videoId).data);
  const clips = useLastDefined<PublishClipRecord[]>(useClips(videoId).data) ?? NO_CLIPS;
  const bridged = bridge.videoId === null || bridge.videoId === videoId;
  const pendingMutes = bridged ? bridge.pendingMutes : NO_MUTES;
  const historyEntries = bridged ? bridge.historyEntries : 0;
  const [dialogOpen, setDialogOpen] = useState(false);
  const publishRef = useRef<HTMLButtonElement>(null);

  const onCompleted = useCallback(() => {
    // upload statuses changed: the video and its clips are fetched again
    void queryClient.invalidateQueries({ queryKey: publishKeys.video(videoId), exact: true });
    void queryClient.invalidateQueries({ queryKey: publishKeys.clips(videoId), exact: true });
  }, [queryClient, videoId]);
  // Transcript saves change vttChanged on the server but not the cached video: refetch it (debounced)
  // when the editor's history moves, so 'Publish changes' offers the subtitles without a reload.
  useEffect(() => {
    if (!bridged || historyEntries === 0) return;
    const refetch = () => void queryClient.invalidateQueries({ queryKey: publishKeys.video(videoId), exact: true });
    const timers = HISTORY_REFETCH_DELAYS_MS.map((ms) => setTimeout(refetch, ms));
    return () => timers.forEach(clearTimeout);
  }, [bridged, historyEntries, queryClient, videoId]);
  const job = useExportJob({ onCompleted, videoId });
  const jobControls = useMemo(() => ({ start: job.start, fail: job.fail }), [job.start, job.fail]);
  const reasonId = useId();
  const flow = usePublish({ videoId, sessionId: session.sessionId ?? video?.providerSessionId ?? null, pendingMutes, job: jobControls });

  const items = useMemo(() => (video ? itemsFor(video, clips, pendingMutes) : []), [video, clips, pendingMutes]);

  if (!video || !exportsAvailable(video)) return null;

  const creating = flow.cloning || flow.exporting;
  const button = publishButtonState({ creating, pendingCount: items.length, clipsProcessing: clipsProcessing(clips) });
  const showRevert = revertVisible({ linkedToSession: true, pendingExports: items.length, historyEntries, differsFromOriginal: differsFromOriginal(video) });
  // a disabled Publish says why (tooltip on hover and focus, and its description)
  const disabledReason = button.disabled
    ? (button.tooltip ?? (creating ? 'Publishing has started.' : 'Nothing to publish yet: edit the video or make a clip first.'))
    : undefined;

  const publishButton = (
    <button
      ref={publishRef}
      type="button"
      className="wc-button wc-button--primary"
      aria-disabled={button.disabled || undefined}
      aria-describedby={disabledReason ? reasonId : undefined}
      onClick={() => {
        if (button.disabled) return;
        setDialogOpen(true);
        // the quota shown is the server's count now (another tab or page may have exported)
        void refreshSessionUsage();
      }}
    >
      {PUBLISH_BUTTON_LABEL}
    </button>
  );

  return (
    <>
      {showRevert ? <RevertFlow videoId={video.id} sessionId={session.sessionId ?? video.providerSessionId} /> : null}
      {disabledReason ? <Tooltip content={disabledReason} side="bottom">{publishButton}</Tooltip> : publishButton}
      {disabledReason ? (
        <span id={reasonId} className="wc-visually-hidden" data-testid="publish-disabled-reason">
          {disabledReason}
        </span>
      ) : null}
      <PublishDialog
        open={dialogOpen}
        onOpenChange={(open) => {
          setDialogOpen(open);
          // a closed dialog forgets the clone choice: each publish decides anew
          if (!open) flow.setCloneOn(false);
        }}
        items={items}
        isClone={video.providerIsClone}
        quota={session.usage}
        cloning={flow.cloning}
        exporting={flow.exporting}
        cloneOn={flow.cloneOn}
        onCloneChange={flow.setCloneOn}
        onConfirm={(selected) => {
          void flow.publish(selected).then((close) => {
            if (close) setDialogOpen(false);
          });
        }}
      />
      <ExportProgressDialog state={job.state} retrying={job.retrying} onRetry={job.retry} onClose={job.close} returnFocusTo={publishRef} />
    </>
  );
}
