import { captionStyleSchema, muteLevelSchema } from '@wordcut/contracts';
import { z } from 'zod';
import { EditListError } from './errors';
import type { EditList } from './types';

/**
 * Structural invariants of an edit list, as a zod schema: use it to parse edit lists that come
 * from outside (database rows, bus messages, HTTP bodies). Every function of this library also
 * checks its edit-list arguments with it, so a corrupted list fails loudly instead of rendering
 * something wrong.
 */

const seconds = z.number().min(0, 'must be a time in seconds >= 0');

const rangeShape = { start: seconds, end: seconds };

const segmentSchema = z.object(rangeShape).refine((s) => s.start < s.end, { message: 'a segment must start before it ends' });

const muteSchema = z
  .object({ ...rangeShape, level: muteLevelSchema })
  .refine((m) => m.start < m.end, { message: 'a mute must start before it ends' });

export const editListSchema: z.ZodType<EditList> = z
  .object({
    sourceDuration: z.number().positive('the source duration must be a number of seconds > 0'),
    segments: z.array(segmentSchema).min(1, 'an edit list keeps at least one segment'),
    mutes: z.array(muteSchema),
    burnCaptions: z.boolean(),
    captionStyle: captionStyleSchema.optional(),
  })
  .superRefine((el, ctx) => {
    const { sourceDuration } = el;
    el.segments.forEach((s, i) => {
      if (s.end > sourceDuration) {
        ctx.addIssue({ code: 'custom', path: ['segments', i, 'end'], message: `segment ends at ${s.end} s, after the end of the source (${sourceDuration} s)` });
      }
    });
    // play order is free, but no source instant may be kept twice
    const bySource = el.segments.map((s, i) => ({ ...s, i })).sort((a, b) => a.start - b.start);
    for (let k = 1; k < bySource.length; k++) {
      const prev = bySource[k - 1]!;
      const next = bySource[k]!;
      if (next.start < prev.end) {
        ctx.addIssue({
          code: 'custom',
          path: ['segments', next.i],
          message: `segment ${next.i} (${next.start} s to ${next.end} s) overlaps segment ${prev.i} (${prev.start} s to ${prev.end} s) in source time`,
        });
      }
    }
    el.mutes.forEach((m, i) => {
      if (m.end > sourceDuration) {
        ctx.addIssue({ code: 'custom', path: ['mutes', i, 'end'], message: `mute ends at ${m.end} s, after the end of the source (${sourceDuration} s)` });
      }
      const prev = el.mutes[i - 1];
      if (prev && m.start < prev.end) {
        ctx.addIssue({
          code: 'custom',
          path: ['mutes', i],
          message: `mute ${i} (${m.start} s to ${m.end} s) starts before mute ${i - 1} ends (${prev.end} s); mutes must be sorted and must not overlap`,
        });
      }
    });
  });

/**
 * Parse an edit list from untrusted JSON (database row, bus message): a fresh copy without unknown
 * keys. Throws EditListError INVALID_EDIT_LIST naming the first problem, so callers deal with one
 * error type whatever went wrong.
 */
export function parseEditList(json: unknown, label = 'edit list'): EditList {
  const result = editListSchema.safeParse(json);
  if (result.success) return result.data;
  throw invalid(result.error.issues, label);
}

/** Throws EditListError INVALID_EDIT_LIST, naming the first problem, unless `el` is a valid edit list. */
export function assertEditList(el: unknown, label = 'edit list'): asserts el is EditList {
  const result = editListSchema.safeParse(el);
  if (!result.success) throw invalid(result.error.issues, label);
}

function invalid(issues: readonly z.core.$ZodIssue[], label: string): EditListError {
  const issue = issues[0]!;
  const where = issue.path.length ? ` at ${formatPath(issue.path)}` : '';
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem(s))` : '';
  return new EditListError('INVALID_EDIT_LIST', `invalid ${label}${where}: ${issue.message}${more}.`);
}

function formatPath(path: readonly PropertyKey[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i ? '.' : ''}${String(p)}`)).join('');
}
