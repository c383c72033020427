import type { BurnCaptionsBody } from '@wordcut/contracts';
import { PAUSE_CONTEXT_WORDS_DEFAULT } from '@wordcut/contracts';
import type { SilenceRecommendation } from '@wordcut/contracts';
import { jobBlockedBy } from '@wordcut/editor-core';
import { describeError } from '@wordcut/ui';
import type { ToastInput } from '@wordcut/ui';
import type { JobRunner } from '../jobs/jobRunner';
import { JOB_SPECS } from '../jobs/specs';
import type { PlaybackStore } from '../shared/playback';
import type { WorkspaceStore } from '../shared/workspace';
import * as api from './api';
import { INITIAL_SILENCE_STATE, PREVIEW_LEAD_SECONDS, clampMinPause, decisionOf, pendingSilencesOf, removalRequest } from './silenceState';
import type { SilenceStore } from './silenceState';

/**
 * The silence flow as plain functions over the stores: detect the pauses, mark each remove or
 * keep, preview without the removed ones, confirm, then remove them as a job under the page's
 * overlay. Also Burn Captions, the other job started from the toolbar.
 */

export interface SilenceCommandContext {
  videoId: string;
  silence: SilenceStore;
  workspace: WorkspaceStore;
  playback: Pick<PlaybackStore, 'seek' | 'play'>;
  runner: Pick<JobRunner, 'job' | 'start'>;
  /** refetches the video, transcript, clips and waveform */
  refreshVideo: () => Promise<void>;
  toast: (input: ToastInput) => void;
  /** the calls (the server's, unless a test replaces them) */
  api?: Pick<typeof api, 'detectSilence' | 'processSilence' | 'burnCaptions'>;
}

export const DETECTION_FAILED: ToastInput = { title: 'Detection Failed', description: 'Could not analyze silence segments', variant: 'destructive' };
export const NO_SILENCES_TO_REMOVE: ToastInput = { title: 'No silences to remove', description: "Mark silences as 'Remove' before processing", variant: 'destructive' };
export const PROCESS_FAILED_TITLE = 'Failed to process silences';
export const PROCESS_FAILED_DEFAULT = 'Unknown error occurred';
export const PLAYBACK_FAILED: ToastInput = { title: 'Playback failed', description: 'Unable to start video playback', variant: 'destructive' };
export const CAPTIONS_FAILED_TITLE = 'Caption processing failed';

const calls = (context: SilenceCommandContext) => context.api ?? api;

/** The player, timeline and transcript follow the pauses and their decisions. */
function publish(context: SilenceCommandContext): void {
  context.workspace.update({ pendingSilences: pendingSilencesOf(context.silence.getSnapshot()) });
}

/** A job re-renders the video: refused while another job runs (one at a time per video). */
function blockedByRunningJob(context: SilenceCommandContext): boolean {
  const reason = jobBlockedBy('silence', context.runner.job ? [context.runner.job.spec.kind] : []);
  if (reason === null) return false;
  context.toast({ title: 'Please wait', description: reason, variant: 'destructive' });
  return true;
}

/** Detect Silence: opens the panel and analyses the video with the slider's minimum pause. */
export async function detectSilences(context: SilenceCommandContext): Promise<void> {
  const { silence } = context;
  const state = silence.getSnapshot();
  if (state.detecting) return;
  silence.update({ panelOpen: true, detecting: true });
  try {
    const analysis = await calls(context).detectSilence(context.videoId, {
      minPauseDuration: clampMinPause(state.minPauseDuration),
      contextWords: PAUSE_CONTEXT_WORDS_DEFAULT,
      useAutoThresholds: state.useAutoThresholds,
    });
    silence.update({ analysis, decisions: {}, selectedId: null });
    publish(context);
  } catch {
    context.toast(DETECTION_FAILED);
  } finally {
    silence.update({ detecting: false });
  }
}

/** The toolbar's Detect Silence: the panel again when there are results, else a new analysis. */
export function openSilencePanel(context: SilenceCommandContext): Promise<void> {
  if (context.silence.getSnapshot().analysis) {
    context.silence.update({ panelOpen: true });
    return Promise.resolve();
  }
  return detectSilences(context);
}

export function setMinPause(context: Pick<SilenceCommandContext, 'silence'>, value: number): void {
  context.silence.update({ minPauseDuration: clampMinPause(value) });
}

/** Flips one pause between remove and keep. */
export function toggleSilence(context: SilenceCommandContext, id: string): void {
  const state = context.silence.getSnapshot();
  const segment = state.analysis?.silences.find((s) => s.id === id);
  if (!segment) return;
  const next: SilenceRecommendation = decisionOf(state, segment) === 'remove' ? 'keep' : 'remove';
  context.silence.update({ decisions: { ...state.decisions, [id]: next } });
  publish(context);
}

/** Remove All / Keep All. */
export function decideAll(context: SilenceCommandContext, decision: SilenceRecommendation): void {
  const state = context.silence.getSnapshot();
  const decisions: Record<string, SilenceRecommendation> = {};
  for (const s of state.analysis?.silences ?? []) decisions[s.id] = decision;
  context.silence.update({ decisions });
  publish(context);
}

/** Silence preview on or off (it stays off while no pause is marked remove). */
export function setSilencePreview(context: Pick<SilenceCommandContext, 'workspace'>, on: boolean): void {
  context.workspace.update({ silencePreview: on });
}

/** A row click: the player goes to just before the pause and plays it with the silence preview on. */
export function previewSilence(context: SilenceCommandContext, id: string): void {
  const segment = context.silence.getSnapshot().analysis?.silences.find((s) => s.id === id);
  if (!segment) return;
  context.silence.update({ selectedId: id });
  setSilencePreview(context, true);
  context.playback.seek(Math.max(0, segment.startTime - PREVIEW_LEAD_SECONDS));
  context.playback.play().catch(() => context.toast(PLAYBACK_FAILED));
}

/** Cancel: the pauses are dropped, nothing is skipped or marked any more. */
export function clearSilences(context: Pick<SilenceCommandContext, 'silence' | 'workspace'>): void {
  const { minPauseDuration, useAutoThresholds } = context.silence.getSnapshot();
  context.silence.update({ ...INITIAL_SILENCE_STATE, minPauseDuration, useAutoThresholds });
  context.workspace.update({ pendingSilences: [], silencePreview: false });
}

/** 'Process N Silence Segments': asks for confirmation, or says there is nothing to remove. */
export function requestSilenceRemoval(context: SilenceCommandContext): void {
  if (removalRequest(context.silence.getSnapshot()).length === 0) {
    context.toast(NO_SILENCES_TO_REMOVE);
    return;
  }
  context.silence.update({ confirmOpen: true });
}

/**
 * Confirmed: process-silence with the pauses marked remove, then the job under the overlay. The
 * overlay shows from the start call on; a refused start closes it with 'Failed to process silences'.
 */
export async function processSilences(context: SilenceCommandContext): Promise<void> {
  const { silence } = context;
  silence.update({ confirmOpen: false });
  const ranges = removalRequest(silence.getSnapshot());
  if (ranges.length === 0) {
    context.toast(NO_SILENCES_TO_REMOVE);
    return;
  }
  if (silence.getSnapshot().starting || blockedByRunningJob(context)) return;
  silence.update({ starting: true, panelOpen: false });
  try {
    const { jobId } = await calls(context).processSilence(context.videoId, ranges);
    context.runner.start({
      ...JOB_SPECS['silence']!,
      jobId,
      onCompleted: async () => {
        // the pauses were measured on the old version
        clearSilences(context);
        await context.refreshVideo();
      },
    });
  } catch (error) {
    context.toast({ title: PROCESS_FAILED_TITLE, description: describeError(error) || PROCESS_FAILED_DEFAULT, variant: 'destructive' });
  } finally {
    silence.update({ starting: false });
  }
}

/** Burn Captions: renders the current words into the picture in `style` (or takes them out) as a job; the video reloads when done. */
export async function burnCaptions(context: SilenceCommandContext, request: BurnCaptionsBody = {}): Promise<void> {
  if (blockedByRunningJob(context)) return;
  try {
    const { jobId } = await calls(context).burnCaptions(context.videoId, request);
    context.runner.start({ ...JOB_SPECS['caption']!, jobId, onCompleted: () => context.refreshVideo() });
  } catch (error) {
    context.toast({ title: CAPTIONS_FAILED_TITLE, description: describeError(error), variant: 'destructive' });
  }
}
