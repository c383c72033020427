import type { JobSpec } from './jobRunner';

type BaseSpec = Omit<JobSpec, 'jobId' | 'onCompleted' | 'onEnded'>;

/**
 * The overlay and failure-toast texts of each editing job, by the type stored with an active job;
 * used to start jobs and to reconnect to one after a reload.
 */
export const JOB_SPECS: Readonly<Record<string, BaseSpec>> = Object.freeze({
  cut: { kind: 'video', type: 'cut', title: 'Processing video', failureTitle: 'Video processing failed', failureDefault: 'The video could not be processed. Please try again.' },
  keep: { kind: 'video', type: 'keep', title: 'Keeping selection', failureTitle: 'Video processing failed', failureDefault: 'The video could not be processed. Please try again.' },
  filler: { kind: 'video', type: 'filler', title: 'Removing filler words', failureTitle: 'Video processing failed', failureDefault: 'The filler words could not be removed. Please try again.' },
  mute: {
    kind: 'mute',
    type: 'mute',
    title: 'Processing audio',
    failureTitle: 'Mute processing failed',
    failureDefault: 'The muted regions could not be applied. Please try again.',
    cancelledTitle: 'Mute processing cancelled',
  },
  reorder: { kind: 'reorder', type: 'reorder', title: 'Reordering video', failureTitle: 'Video reordering failed', failureDefault: 'The video could not be reordered. Please try again.' },
  silence: { kind: 'silence', type: 'silence', title: 'Removing silences', failureTitle: 'Silence removal failed', failureDefault: 'The silences could not be removed. Please try again.' },
  caption: { kind: 'caption', type: 'caption', title: 'Burning captions', failureTitle: 'Caption processing failed', failureDefault: 'The captions could not be burned in. Please try again.' },
});

/** The spec to reconnect to a stored job of `type`, or null for types this page doesn't follow. */
export function storedJobSpec(type: string, onCompleted: () => Promise<void> | void): Omit<JobSpec, 'jobId'> | null {
  const base = JOB_SPECS[type];
  return base ? { ...base, onCompleted } : null;
}
