import { EditListError } from './errors';
import { SLIVER, fmt, layoutOf } from './layout';
import { assertEditList, editListSchema } from './schema';
import type { CaptionStyle } from '@wordcut/contracts';
import type { EditList } from './types';

/** The edit list of an untouched video: all of it, in order, no mutes, no captions. */
export function identityEditList(sourceDuration: number): EditList {
  if (typeof sourceDuration !== 'number' || !Number.isFinite(sourceDuration) || sourceDuration <= 0) {
    throw new EditListError('INVALID_EDIT_LIST', `the source duration must be a finite number of seconds > 0 (got ${String(sourceDuration)}).`);
  }
  return { sourceDuration, segments: [{ start: 0, end: sourceDuration }], mutes: [], burnCaptions: false };
}

/** True when rendering `el` would reproduce the original: one full segment, no mutes, no captions. */
export function isIdentity(el: EditList): boolean {
  assertEditList(el);
  const only = el.segments.length === 1 ? el.segments[0]! : undefined;
  return !!only && only.start === 0 && Math.abs(only.end - el.sourceDuration) <= SLIVER && el.mutes.length === 0 && !el.burnCaptions;
}

/** Duration (seconds) of the video the user sees: the sum of the kept segments. */
export function outputDuration(el: EditList): number {
  assertEditList(el);
  return layoutOf(el).duration;
}

/** The same edit list with captions burned into renders (on, in `style` or the style it has) or not. */
export function withCaptions(el: EditList, on: boolean, style?: CaptionStyle): EditList {
  assertEditList(el);
  if (typeof on !== 'boolean') throw new EditListError('INVALID_EDIT_LIST', `captions must be switched on or off with true or false (got ${String(on)}).`);
  const next: EditList = { ...cloneEditList(el), burnCaptions: on };
  if (on && style) next.captionStyle = { ...style };
  return next;
}

/**
 * A short human summary for logs, e.g. "3 segments, 41.2 s of 60 s, 2 mutes, captions". Never
 * throws (a log line must not break the code that writes it): an invalid list is described as such.
 */
export function describeEditList(el: EditList): string {
  const parsed = editListSchema.safeParse(el);
  if (!parsed.success) return `invalid edit list (${parsed.error.issues[0]?.message ?? 'unknown problem'})`;
  const n = el.segments.length;
  const m = el.mutes.length;
  const parts = [`${n} segment${n === 1 ? '' : 's'}`, `${fmtShort(layoutOf(el).duration)} s of ${fmtShort(el.sourceDuration)} s`];
  if (m > 0) parts.push(`${m} mute${m === 1 ? '' : 's'}`);
  if (el.burnCaptions) parts.push('captions');
  return parts.join(', ');
}

function fmtShort(seconds: number): string {
  return fmt(Number(seconds.toFixed(1)));
}

/** A deep copy, so results never share arrays or objects with their input. */
export function cloneEditList(el: EditList): EditList {
  return {
    sourceDuration: el.sourceDuration,
    segments: el.segments.map((s) => ({ start: s.start, end: s.end })),
    mutes: el.mutes.map((m) => ({ start: m.start, end: m.end, level: m.level })),
    burnCaptions: el.burnCaptions,
    ...(el.captionStyle ? { captionStyle: { ...el.captionStyle } } : {}),
  };
}
