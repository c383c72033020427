import { cutRanges, jobBlockedBy } from '@wordcut/editor-core';
import type { EditJobKind, RunningJobs } from '@wordcut/editor-core';
import { describeError } from '@wordcut/ui';
import type { ToastInput } from '@wordcut/ui';
import type { JobStarted } from '../jobs/api';
import type { JobRunner, JobSpec } from '../jobs/jobRunner';
import { JOB_SPECS } from '../jobs/specs';
import * as api from './api';
import type { EditorStore } from './editorStore';

/**
 * The transcript editor's media jobs, as plain functions: Process Video (the pending cuts), Keep
 * Selection (the two outer ranges), Remove Filler Words and Process Audio (the pending mutes). Each
 * is refused while a job it conflicts with runs, starts through the server, then runs under the
 * page's job overlay; on completion the page's data is refreshed and the job's marks cleared.
 */

export interface JobCommandContext {
  videoId: string;
  editor: EditorStore;
  runner: JobRunner;
  /** refetches the video, transcript, clips and waveform */
  refreshVideo: () => Promise<void>;
  toast: (input: ToastInput) => void;
  /** the start calls (the server's, unless a test replaces them) */
  api?: Pick<typeof api, 'applyCuts' | 'removeFillerWords' | 'startMuteJob'>;
}

/** The kinds of the editing jobs running now (one at a time per page). */
export function runningJobs(runner: Pick<JobRunner, 'job'>): RunningJobs {
  return runner.job ? [runner.job.spec.kind] : [];
}

/**
 * Starts an editing job of `kind` through `begin` (refused while a job it conflicts with runs) and
 * runs it under the page's job overlay with its texts; once it completes, `clearMarks` clears the
 * marks it applied and the page's data is refreshed.
 */
async function startJob(
  context: JobCommandContext,
  kind: EditJobKind,
  begin: () => Promise<JobStarted>,
  o: { startFailure: string; clearMarks?: () => void; onEnded?: () => void },
): Promise<void> {
  const blocked = jobBlockedBy(kind, runningJobs(context.runner));
  if (blocked) {
    context.toast({ title: 'Please wait', description: blocked, variant: 'destructive' });
    return;
  }
  const spec: Omit<JobSpec, 'jobId'> = {
    ...JOB_SPECS[kind]!,
    onCompleted: async () => {
      o.clearMarks?.();
      await context.refreshVideo();
    },
    ...(o.onEnded ? { onEnded: o.onEnded } : {}),
  };
  try {
    const { jobId } = await begin();
    context.runner.start({ ...spec, jobId });
  } catch (error) {
    context.toast({ title: o.startFailure, description: describeError(error), variant: 'destructive' });
  }
}

const calls = (context: JobCommandContext) => context.api ?? api;

/** Process Video with N Cuts: cuts the pending cut ranges from the media. */
export function processCuts(context: JobCommandContext): Promise<void> {
  const { editor, videoId } = context;
  const ranges = cutRanges(editor.getSnapshot().pendingCuts);
  return startJob(context, 'cut', () => calls(context).applyCuts(videoId, ranges), {
    startFailure: 'Failed to apply cuts',
    clearMarks: () => {
      editor.settleCuts();
      editor.clearSelection();
    },
  });
}

/** Proceed with Trim: cuts everything before and after the kept text. */
export function processKeep(context: JobCommandContext): Promise<void> {
  const { editor, videoId } = context;
  const cuts = [...editor.getSnapshot().keepCuts];
  const leaveKeepPreview = () => editor.settleKeep();
  return startJob(context, 'keep', () => calls(context).applyCuts(videoId, cuts), {
    startFailure: 'Failed to process keep selection',
    clearMarks: () => {
      leaveKeepPreview();
      editor.clearSelection();
    },
    onEnded: leaveKeepPreview,
  });
}

/** Remove Filler Words: cuts the filler words from the media (every one, or those the review left checked). */
export function processFillers(context: JobCommandContext, chosen?: readonly number[]): Promise<void> {
  const indices = [...(chosen ?? context.editor.getSnapshot().content.fillerWords)];
  if (indices.length === 0) {
    context.toast({ title: 'No filler words selected', description: 'Every filler word is kept, so nothing was removed.' });
    return Promise.resolve();
  }
  return startJob(context, 'filler', () => calls(context).removeFillerWords(context.videoId, indices), { startFailure: 'Failed to remove filler words' });
}

/** Process Audio with N Muted Regions: lowers the audio of the pending mutes. */
export function processMutes(context: JobCommandContext): Promise<void> {
  const { editor } = context;
  const mutes = [...editor.getSnapshot().pendingMutes];
  return startJob(context, 'mute', () => calls(context).startMuteJob(context.videoId, mutes), {
    startFailure: 'Failed to apply mutes',
    clearMarks: () => editor.settleMutes(),
  });
}
