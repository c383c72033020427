import { JOB_KINDS } from '@wordcut/contracts';
import { EDIT_JOB_KINDS, jobKindOf, type EditJobKind } from '@wordcut/editor-core';
import type { JobSpec } from './jobRunner';

type BaseSpec = Omit<JobSpec, 'jobId' | 'onCompleted' | 'onEnded'>;

/** Overlay titles of editor actions that differ from their kind's. */
const ACTION_TITLES: Partial<Record<EditJobKind, string>> = { keep: 'Keeping selection' };

/**
 * The overlay and failure-toast texts of each editing job, by the type stored with an active job
 * (the job-kind registry's overlay of the kind it starts); used to start jobs and to reconnect to
 * one after a reload.
 */
export const JOB_SPECS: Readonly<Record<EditJobKind, BaseSpec>> = Object.freeze(
  Object.fromEntries(
    EDIT_JOB_KINDS.map((action) => {
      const kind = jobKindOf(action);
      const overlay = JOB_KINDS[kind].overlay!;
      return [action, { kind, type: action, ...overlay, title: ACTION_TITLES[action] ?? overlay.title }];
    }),
  ) as Record<EditJobKind, BaseSpec>,
);

/** The spec to reconnect to a stored job of `type`, or null for types this page doesn't follow. */
export function storedJobSpec(type: string, onCompleted: () => Promise<void> | void): Omit<JobSpec, 'jobId'> | null {
  const base = (JOB_SPECS as Readonly<Record<string, BaseSpec | undefined>>)[type];
  return base ? { ...base, onCompleted } : null;
}
