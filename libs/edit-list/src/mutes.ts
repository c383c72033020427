/**
 * Mutes: stored in source time so they follow the content through later cuts and reorders, and
 * placed back into output time for a render.
 */
import { cloneEditList } from './basics';
import { EditListError } from './errors';
import { checkList, checkRange, layoutOf, outputPiecesOf, sourcePiecesOf, SLIVER } from './layout';
import { normaliseMutes, subtractFromMutes } from './mutes-internal';
import { mergeRanges } from './ranges';
import { assertEditList } from './schema';
import { MUTE_LEVELS, MUTE_VOLUME, type EditList, type MuteLevel, type OutputMute, type TimeRange } from './types';

/**
 * Mutes the output ranges at `level` (ranges clamped like cuts, empty ones ignored). Where a new
 * mute overlaps an existing one the new level wins on the overlap; `mutes` stays sorted,
 * non-overlapping, with touching same-level mutes merged. Throws INVALID_RANGE for a bad range,
 * INVALID_EDIT_LIST for an unknown level.
 */
export function applyMute(el: EditList, ranges: readonly TimeRange[], level: MuteLevel): EditList {
  assertEditList(el);
  if (!MUTE_LEVELS.includes(level)) {
    throw new EditListError('INVALID_EDIT_LIST', `unknown mute level '${String(level)}'; use one of ${MUTE_LEVELS.join(', ')}.`);
  }
  checkList(ranges, 'mute ranges');
  const layout = layoutOf(el);
  const added = mergeRanges(
    ranges.flatMap((r, i) => {
      const range = checkRange(r, layout.duration, `mute range ${i + 1}`);
      return sourcePiecesOf(layout, range.start, range.end);
    }),
  );
  const kept = subtractFromMutes(el.mutes, added);
  const mutes = normaliseMutes([...kept, ...added.map((r) => ({ start: r.start, end: r.end, level }))]);
  return { ...cloneEditList(el), mutes };
}

/**
 * The mutes in output time, for a render: sorted by start, adjacent pieces of the same level
 * merged, each with its volume factor. Mutes over cut content do not appear.
 */
export function outputMutes(el: EditList): OutputMute[] {
  assertEditList(el);
  const layout = layoutOf(el);
  const pieces: OutputMute[] = el.mutes.flatMap((m) => outputPiecesOf(layout, m.start, m.end).map((r) => ({ ...r, level: m.level, volume: MUTE_VOLUME[m.level] })));
  pieces.sort((x, y) => x.start - y.start);
  const out: OutputMute[] = [];
  for (const piece of pieces) {
    const prev = out[out.length - 1];
    if (prev && prev.level === piece.level && piece.start - prev.end <= SLIVER) prev.end = Math.max(prev.end, piece.end);
    else out.push(piece);
  }
  return out;
}

/** An output range to be muted at a level (an export names the mutes it wants this way). */
export interface WantedMute extends TimeRange {
  level: MuteLevel;
}

/**
 * The wanted mutes the list does not already apply: a wanted mute is applied when one output mute
 * of the same level covers it (within `tolerance` seconds at either end, for rounding).
 */
export function unappliedMutes(el: EditList, wanted: readonly WantedMute[], tolerance = 0.05): WantedMute[] {
  const applied = outputMutes(el);
  return wanted.filter((w) => !applied.some((m) => m.level === w.level && m.start <= w.start + tolerance && m.end >= w.end - tolerance));
}

/**
 * Applies mutes of several levels: level by level (silence, whisper, background), so where two of
 * them overlap the later level wins on the overlap, as applyMute's newer mute does.
 */
export function applyMutes(el: EditList, mutes: readonly WantedMute[]): EditList {
  let out = el;
  for (const level of MUTE_LEVELS) {
    const ranges = mutes.filter((m) => m.level === level).map(({ start, end }) => ({ start, end }));
    if (ranges.length > 0) out = applyMute(out, ranges, level);
  }
  return out;
}
