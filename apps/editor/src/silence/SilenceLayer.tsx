import { useContext, useEffect, useMemo, useRef } from 'react';
import type { Video } from '@wordcut/contracts';
import { toast } from '@wordcut/ui';
import { useJobs } from '../jobs/jobRunner';
import type { RunningJob } from '../jobs/jobRunner';
import { useRefreshVideo } from '../jobs/refresh';
import { usePlaybackStore } from '../shared/playback';
import { useWorkspaceStore } from '../shared/workspace';
import { burnCaptions, clearSilences, openSilencePanel } from './commands';
import { CaptionsDialog } from './CaptionsDialog';
import { PauseHelpDialog } from './PauseHelpDialog';
import { SilenceContext, useSilence, useSilenceCommands } from './silenceContext';
import { SilenceConfirmDialog } from './SilenceConfirmDialog';
import { SilenceOverlay } from './SilenceOverlay';
import { SilencePanel } from './SilencePanel';
import { SilenceStyles } from './styles';
import { useLeavePrompt } from './useLeavePrompt';

/** A silence removal has its own full-screen overlay; the page's job overlay shows every other job. */
export const isSilenceJob = (job: RunningJob | null): boolean => job?.spec.type === 'silence';

/**
 * The silence panel, its dialogs and the removal overlay, for one video page; the browser asks
 * before leaving while a removal runs. `mediaVersion` names the media the player plays.
 */
export function SilenceLayer({ duration, mediaVersion, burnedCaptions = null }: { duration: number; mediaVersion: string | null; burnedCaptions?: Video['burnedCaptions'] }) {
  const runner = useJobs();
  const commands = useSilenceCommands();
  // pauses were measured on one version of the media: a new render drops them
  const measuredOn = useRef(mediaVersion);
  useEffect(() => {
    if (measuredOn.current === mediaVersion) return;
    measuredOn.current = mediaVersion;
    clearSilences(commands);
  }, [mediaVersion, commands]);
  const starting = useSilence((s) => s.starting);
  const captionsConfirm = useSilence((s) => s.captionsConfirmOpen);
  const job = isSilenceJob(runner.job) ? runner.job : null;
  useLeavePrompt(starting || job?.phase === 'running');
  return (
    <>
      <SilenceStyles />
      <SilencePanel duration={duration} />
      <PauseHelpDialog />
      <SilenceConfirmDialog duration={duration} />
      <CaptionsDialog
        open={captionsConfirm}
        videoId={commands.silence.videoId}
        burned={burnedCaptions}
        onBurn={(style) => {
          commands.silence.update({ captionsConfirmOpen: false });
          void burnCaptions(commands, { style });
        }}
        onRemove={() => {
          commands.silence.update({ captionsConfirmOpen: false });
          void burnCaptions(commands, { enabled: false });
        }}
        onClose={() => commands.silence.update({ captionsConfirmOpen: false })}
      />
      <SilenceOverlay job={job} starting={starting && !job} onCancel={() => void runner.cancel()} videoId={commands.silence.videoId} />
    </>
  );
}

/** The toolbar's Detect Silence and Burn Captions; null outside a video page. */
export function useSilenceToolbar(): { detectSilence: () => void; burnCaptions: () => void } | null {
  const store = useContext(SilenceContext);
  const workspace = useWorkspaceStore();
  const playback = usePlaybackStore();
  const runner = useJobs();
  const refreshVideo = useRefreshVideo(store?.videoId ?? '');
  return useMemo(() => {
    if (!store) return null;
    const context = { videoId: store.videoId, silence: store, workspace, playback, runner, refreshVideo, toast };
    return {
      detectSilence: () => void openSilencePanel(context),
      burnCaptions: () => store.update({ captionsConfirmOpen: true }),
    };
  }, [store, workspace, playback, runner, refreshVideo]);
}
