import type { CaptionStyle } from '@wordcut/contracts';
/**
 * The edit list: a video keeps its original media untouched, and what the user sees (the "output")
 * is described as the kept source ranges in play order, plus mutes and a captions flag. Renders
 * are always made from the original, so edits compose without generation loss.
 *
 * All times are seconds. "Source time" is time in the original file, "output time" is time in the
 * rendered video as the user sees it now.
 */

import type { MuteLevel } from '@wordcut/contracts';

/** Mute levels and the volume each plays at are defined once, in the contracts. */
export { MUTE_LEVELS, MUTE_VOLUME, type MuteLevel } from '@wordcut/contracts';

/** A half-open interval [start, end) of seconds; start < end. */
export interface TimeRange {
  start: number;
  end: number;
}

/** A kept range of the original media, in source time. */
export interface SourceSegment {
  start: number;
  end: number;
}

/** A muted range of the original media, in SOURCE time (so it follows the content when reordered). */
export interface SourceMute {
  start: number;
  end: number;
  level: MuteLevel;
}

export interface EditList {
  /** duration of the original media, seconds (> 0) */
  sourceDuration: number;
  /** kept source ranges in PLAY order; pairwise non-overlapping in source time; each non-empty; within [0, sourceDuration] */
  segments: SourceSegment[];
  /** source time, sorted by start, non-overlapping; each within [0, sourceDuration] */
  mutes: SourceMute[];
  /** captions are burned into renders */
  burnCaptions: boolean;
  /** how burned captions look (absent: the default style) */
  captionStyle?: CaptionStyle;
}

/** A mute placed in output time, ready for a render: where, which level, and the volume factor. */
export interface OutputMute extends TimeRange {
  level: MuteLevel;
  volume: number;
}
