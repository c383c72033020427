import type { ToastInput } from '@wordcut/ui';
import type { JobRunner, JobSpec, RunningJob } from '../jobs/jobRunner';
import { JOB_SPECS } from '../jobs/specs';
import { WorkspaceStore } from '../shared/workspace';
import {
  DETECTION_FAILED,
  NO_SILENCES_TO_REMOVE,
  burnCaptions,
  clearSilences,
  decideAll,
  detectSilences,
  openSilencePanel,
  previewSilence,
  processSilences,
  requestSilenceRemoval,
  setMinPause,
  toggleSilence,
} from './commands';
import type { SilenceCommandContext } from './commands';
import { SilenceStore, markedForRemoval } from './silenceState';
import { analysisOf, pause } from './testing.spec-helpers';

/**
 * The silence flow without React: detect with the slider's value, decide, preview, confirm, then
 * the removal job under the page's runner; the failure texts; Burn Captions.
 */

const silences = [pause(0, 2, 'remove'), pause(3.4, 4.2, 'keep'), pause(9.15, 10.55, 'remove')];

function setup(options: { running?: boolean } = {}) {
  const silence = new SilenceStore('v1');
  const workspace = new WorkspaceStore();
  const started: JobSpec[] = [];
  const runner: Pick<JobRunner, 'job' | 'start'> = {
    job: options.running ? ({ spec: { ...JOB_SPECS['cut']!, jobId: 'cut_1' }, phase: 'running', status: null } as RunningJob) : null,
    start: (spec) => void started.push(spec),
  };
  const toasts: ToastInput[] = [];
  const api = {
    detectSilence: jest.fn(async () => analysisOf(silences)),
    processSilence: jest.fn(async () => ({ jobId: 'silence_1' })),
    burnCaptions: jest.fn(async () => ({ jobId: 'caption_1' })),
  };
  const playback = { seek: jest.fn(), play: jest.fn(async () => undefined) };
  const refreshVideo = jest.fn(async () => undefined);
  const context: SilenceCommandContext = { videoId: 'v1', silence, workspace, playback, runner, refreshVideo, toast: (t) => void toasts.push(t), api };
  return { context, silence, workspace, started, toasts, api, playback, refreshVideo };
}

describe('detect', () => {
  it('opens the panel and asks with the slider, 5 context words and automatic thresholds', async () => {
    const { context, silence, workspace, api } = setup();
    setMinPause(context, 1.24);
    await detectSilences(context);
    expect(api.detectSilence).toHaveBeenCalledWith('v1', { minPauseDuration: 1.2, contextWords: 5, useAutoThresholds: true });
    expect(silence.getSnapshot()).toMatchObject({ panelOpen: true, detecting: false });
    expect(silence.getSnapshot().analysis?.silences).toHaveLength(3);
    expect(workspace.getSnapshot().pendingSilences.map((s) => s.recommendation)).toEqual(['remove', 'keep', 'remove']);
  });

  it("says 'Detection Failed' when the analysis fails", async () => {
    const { context, toasts, api, silence } = setup();
    api.detectSilence.mockRejectedValueOnce(new Error('503'));
    await detectSilences(context);
    expect(toasts).toEqual([DETECTION_FAILED]);
    expect(DETECTION_FAILED).toMatchObject({ title: 'Detection Failed', description: 'Could not analyze silence segments' });
    expect(silence.getSnapshot().detecting).toBe(false);
  });

  it('the toolbar reopens the panel on earlier results without a new call', async () => {
    const { context, silence, api } = setup();
    await openSilencePanel(context);
    silence.update({ panelOpen: false });
    await openSilencePanel(context);
    expect(api.detectSilence).toHaveBeenCalledTimes(1);
    expect(silence.getSnapshot().panelOpen).toBe(true);
  });
});

describe('decide and preview', () => {
  it('toggles one pause, Remove All and Keep All, and the player follows', async () => {
    const { context, silence, workspace } = setup();
    await detectSilences(context);
    toggleSilence(context, 'pause-3400');
    expect(markedForRemoval(silence.getSnapshot())).toHaveLength(3);
    toggleSilence(context, 'pause-0');
    expect(workspace.getSnapshot().pendingSilences.map((s) => s.recommendation)).toEqual(['keep', 'remove', 'remove']);
    decideAll(context, 'keep');
    expect(markedForRemoval(silence.getSnapshot())).toHaveLength(0);
    decideAll(context, 'remove');
    expect(markedForRemoval(silence.getSnapshot())).toHaveLength(3);
  });

  it('a row click seeks before the pause, turns the silence preview on and plays', async () => {
    const { context, silence, workspace, playback } = setup();
    await detectSilences(context);
    previewSilence(context, 'pause-9150');
    expect(playback.seek).toHaveBeenCalledWith(expect.closeTo(7.65, 5));
    expect(playback.play).toHaveBeenCalled();
    expect(workspace.getSnapshot().silencePreview).toBe(true);
    expect(silence.getSnapshot().selectedId).toBe('pause-9150');
  });

  it('Cancel drops the pauses and the preview, keeping the slider', async () => {
    const { context, silence, workspace } = setup();
    setMinPause(context, 0.5);
    await detectSilences(context);
    previewSilence(context, 'pause-0');
    clearSilences(context);
    expect(silence.getSnapshot()).toMatchObject({ analysis: null, minPauseDuration: 0.5, panelOpen: false });
    expect(workspace.getSnapshot()).toMatchObject({ pendingSilences: [], silencePreview: false });
  });
});

describe('process', () => {
  it("refuses without a pause marked remove: 'No silences to remove'", async () => {
    const { context, silence, api, toasts } = setup();
    await detectSilences(context);
    decideAll(context, 'keep');
    requestSilenceRemoval(context);
    expect(silence.getSnapshot().confirmOpen).toBe(false);
    await processSilences(context);
    expect(api.processSilence).not.toHaveBeenCalled();
    expect(toasts).toEqual([NO_SILENCES_TO_REMOVE, NO_SILENCES_TO_REMOVE]);
    expect(NO_SILENCES_TO_REMOVE).toMatchObject({ title: 'No silences to remove', description: "Mark silences as 'Remove' before processing" });
  });

  it('confirmed, sends the marked ranges and runs the job; done, it clears the pauses and refreshes', async () => {
    const { context, silence, workspace, api, started, refreshVideo } = setup();
    await detectSilences(context);
    requestSilenceRemoval(context);
    expect(silence.getSnapshot().confirmOpen).toBe(true);
    const run = processSilences(context);
    expect(silence.getSnapshot()).toMatchObject({ starting: true, confirmOpen: false, panelOpen: false });
    await run;
    expect(api.processSilence).toHaveBeenCalledWith('v1', [
      { start: 0, end: 2 },
      { start: 9.15, end: 10.55 },
    ]);
    expect(started).toHaveLength(1);
    expect(started[0]).toMatchObject({ jobId: 'silence_1', kind: 'silence', type: 'silence', failureTitle: 'Silence removal failed' });
    expect(silence.getSnapshot().starting).toBe(false);
    await started[0]!.onCompleted!();
    expect(refreshVideo).toHaveBeenCalled();
    expect(silence.getSnapshot().analysis).toBeNull();
    expect(workspace.getSnapshot().pendingSilences).toEqual([]);
  });

  it("a refused start says 'Failed to process silences' with the server's message, or 'Unknown error occurred'", async () => {
    const { context, api, toasts, started, silence } = setup();
    await detectSilences(context);
    api.processSilence.mockRejectedValueOnce(new Error('Another edit is still being processed'));
    await processSilences(context);
    api.processSilence.mockRejectedValueOnce(new Error(''));
    await processSilences(context);
    expect(started).toHaveLength(0);
    expect(toasts.map((t) => [t.title, t.description])).toEqual([
      ['Failed to process silences', 'Another edit is still being processed'],
      ['Failed to process silences', 'Unknown error occurred'],
    ]);
    expect(silence.getSnapshot().starting).toBe(false);
  });

  it('waits while another job runs', async () => {
    const { context, api, toasts } = setup({ running: true });
    await detectSilences(context);
    await processSilences(context);
    await burnCaptions(context);
    expect(api.processSilence).not.toHaveBeenCalled();
    expect(api.burnCaptions).not.toHaveBeenCalled();
    expect(toasts.map((t) => t.title)).toEqual(['Please wait', 'Please wait']);
  });
});

describe('burn captions', () => {
  it('starts the caption job under the overlay and reloads the video when done', async () => {
    const { context, api, started, refreshVideo } = setup();
    await burnCaptions(context, { style: { preset: 'classic', size: 'large', position: 'top' } });
    expect(api.burnCaptions).toHaveBeenCalledWith('v1', { style: { preset: 'classic', size: 'large', position: 'top' } });
    expect(started[0]).toMatchObject({ jobId: 'caption_1', kind: 'caption', failureTitle: 'Caption processing failed' });
    await started[0]!.onCompleted!();
    expect(refreshVideo).toHaveBeenCalled();
  });

  it('a refused start says so', async () => {
    const { context, api, toasts } = setup();
    api.burnCaptions.mockRejectedValueOnce(new Error('There is no transcript to burn in as captions.'));
    await burnCaptions(context);
    expect(toasts[0]).toMatchObject({ title: 'Caption processing failed', description: 'There is no transcript to burn in as captions.' });
  });
});
