import { z } from 'zod';

/**
 * Mute levels: how loud muted audio stays (silent, barely audible, quiet background), and the
 * volume factor each level plays at in renders, the preview and publishing.
 */

/** Every mute level, in order of loudness. */
export const MUTE_LEVELS = ['silence', 'whisper', 'background'] as const;

/** How loud muted audio stays: silent, barely audible, or kept as quiet background. */
export type MuteLevel = (typeof MUTE_LEVELS)[number];

/** A mute level, validated. */
export const muteLevelSchema = z.enum(MUTE_LEVELS);

/** The volume factor (0..1) each mute level plays at: silence 0, whisper 0.1, background 0.3. */
export const MUTE_VOLUME: Readonly<Record<MuteLevel, number>> = { silence: 0, whisper: 0.1, background: 0.3 };
