import { selectRange } from '@wordcut/editor-core';
import type { ToastInput } from '@wordcut/ui';
import type { JobRunner, JobSpec, RunningJob } from '../jobs/jobRunner';
import { JOB_SPECS } from '../jobs/specs';
import { EditorStore } from './editorStore';
import { processCuts, processFillers, processKeep, processMutes, runningJobs } from './jobCommands';
import type { JobCommandContext } from './jobCommands';
import { transcriptOfTexts } from '../testing/transcripts';

/**
 * The transcript editor's media jobs without React: each sends the right start call, runs under
 * the page's job runner with its overlay texts, clears its marks and refreshes the page's data
 * on completion, and is refused while a conflicting job runs.
 */

const stores: EditorStore[] = [];
afterEach(() => stores.splice(0).forEach((store) => store.dispose()));

function setup(runningKind: JobSpec['kind'] | null = null) {
  const editor = new EditorStore({ videoId: 'v1', transcript: transcriptOfTexts(['so', 'um', 'this', 'works'], { fillerWords: [1] }), saver: { save: async (_id, v) => v + 1 }, storage: null });
  stores.push(editor);
  const started: JobSpec[] = [];
  const runner: JobRunner = {
    job: runningKind ? ({ spec: { ...JOB_SPECS.cut!, kind: runningKind, jobId: 'running_1' }, phase: 'running', status: null } as RunningJob) : null,
    start: (spec) => void started.push(spec),
    cancel: async () => undefined,
  };
  const toasts: ToastInput[] = [];
  const api = {
    applyCuts: jest.fn(async () => ({ jobId: 'cut_1' })),
    removeFillerWords: jest.fn(async () => ({ jobId: 'filler_1' })),
    startMuteJob: jest.fn(async () => ({ jobId: 'mute_1' })),
  };
  const refreshVideo = jest.fn(async () => undefined);
  const context: JobCommandContext = { videoId: 'v1', editor, runner, refreshVideo, toast: (input) => void toasts.push(input), api };
  return { context, editor, started, toasts, api, refreshVideo };
}

it('knows which kind of job runs', () => {
  expect(runningJobs({ job: null })).toEqual([]);
  expect(runningJobs(setup('mute').context.runner)).toEqual(['mute']);
  expect(runningJobs(setup('silence').context.runner)).toEqual(['silence']);
});

it('refuses a cut while a silence removal runs', async () => {
  const { context, editor, started, toasts, api } = setup('silence');
  editor.markCuts([0]);
  await processCuts(context);
  expect(api.applyCuts).not.toHaveBeenCalled();
  expect(started).toEqual([]);
  expect(toasts.map((t) => t.title)).toEqual(['Please wait']);
});

it('process video sends the merged cut ranges and, once done, clears the cuts and the selection and refreshes', async () => {
  const { context, editor, started, api, refreshVideo } = setup();
  editor.markCuts([0, 1]);
  editor.markCuts([3]);
  editor.select(selectRange(2, 2), 2);
  await processCuts(context);
  expect(api.applyCuts).toHaveBeenCalledWith('v1', [
    { start: 0, end: 1.8 },
    { start: 3, end: 3.8 },
  ]);
  expect(started).toHaveLength(1);
  expect(started[0]).toMatchObject({ ...JOB_SPECS.cut, jobId: 'cut_1' });
  await started[0]!.onCompleted!();
  expect(editor.getSnapshot().pendingCuts).toHaveLength(0);
  expect(editor.getSnapshot().selection).toHaveLength(0);
  expect(refreshVideo).toHaveBeenCalledTimes(1);
});

it('keep sends the two outer ranges fixed when the preview started, and leaves the preview when the job ends', async () => {
  const { context, editor, started, api } = setup();
  editor.select(selectRange(1, 2), 1);
  editor.setKeepPreview({ start: 1, end: 2 }, [
    { start: 0, end: 1 },
    { start: 2.8, end: 4 },
  ]);
  await processKeep(context);
  expect(api.applyCuts).toHaveBeenCalledWith('v1', [
    { start: 0, end: 1 },
    { start: 2.8, end: 4 },
  ]);
  expect(started[0]).toMatchObject({ ...JOB_SPECS.keep, jobId: 'cut_1' });
  started[0]!.onEnded!();
  expect(editor.getSnapshot().keepPreview).toBeNull();
});

it('remove filler words sends the filler indices; process audio sends the mutes and clears them when done', async () => {
  const { context, editor, started, api } = setup();
  await processFillers(context);
  expect(api.removeFillerWords).toHaveBeenCalledWith('v1', [1]);
  expect(started[0]).toMatchObject({ ...JOB_SPECS.filler, jobId: 'filler_1' });
  editor.markMutes([2], 'whisper');
  await processMutes(context);
  expect(api.startMuteJob).toHaveBeenCalledWith('v1', editor.getSnapshot().pendingMutes);
  expect(started[1]).toMatchObject({ ...JOB_SPECS.mute, jobId: 'mute_1' });
  await started[1]!.onCompleted!();
  expect(editor.getSnapshot().pendingMutes).toHaveLength(0);
});

it('is refused while a conflicting job runs, and a refused start says why', async () => {
  const busy = setup('cut');
  await processCuts(busy.context);
  expect(busy.api.applyCuts).not.toHaveBeenCalled();
  expect(busy.toasts.at(-1)).toMatchObject({ title: 'Please wait', variant: 'destructive' });
  // a mute renders a new version too: it waits for the cut, as the server's renders index would make it
  busy.editor.markMutes([2], 'whisper');
  await processMutes(busy.context);
  expect(busy.api.startMuteJob).not.toHaveBeenCalled();

  const failing = setup();
  failing.api.removeFillerWords.mockRejectedValueOnce(new Error('401: Authentication required'));
  await processFillers(failing.context);
  expect(failing.started).toHaveLength(0);
  expect(failing.toasts.at(-1)).toEqual({ title: 'Failed to remove filler words', description: '401: Authentication required', variant: 'destructive' });
});
