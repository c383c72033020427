import { versionStepSchema } from '@wordcut/contracts';
import type { VersionOperation } from '@wordcut/editor-core';
import type { OriginRun } from '@wordcut/transcript';

/** A version the server made and the page is about to show (a job's result), with its history text. */
export interface IncomingVersion {
  before: number;
  after: number;
  /** where each word of the new version came from; null when the words were replaced (revert) */
  origins: readonly OriginRun[] | null;
  operation: VersionOperation;
  description: string;
}

/** The version step a finished job reports in its result, or null (an older server, a clip). */
export function incomingVersionOf(result: unknown, description: string, operation: VersionOperation = 'process'): IncomingVersion | null {
  const version = (result as { version?: unknown } | null | undefined)?.version;
  const parsed = versionStepSchema.safeParse(version);
  if (!parsed.success) return null;
  return { before: parsed.data.before, after: parsed.data.after, origins: parsed.data.origins ?? null, operation, description };
}
