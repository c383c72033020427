import { z } from 'zod';

/**
 * Burned captions are a setting of an edit version: a style preset, a size and a position. The
 * renderer draws them (libass) inside the title-safe area and above a player's controls.
 */
export const CAPTION_PRESETS = ['boxed', 'classic', 'bold'] as const;
export const CAPTION_SIZES = ['small', 'medium', 'large'] as const;
export const CAPTION_POSITIONS = ['bottom', 'middle', 'top'] as const;
export type CaptionPreset = (typeof CAPTION_PRESETS)[number];
export type CaptionSize = (typeof CAPTION_SIZES)[number];
export type CaptionPosition = (typeof CAPTION_POSITIONS)[number];

export const captionStyleSchema = z.object({
  preset: z.enum(CAPTION_PRESETS).default('boxed'),
  size: z.enum(CAPTION_SIZES).default('medium'),
  position: z.enum(CAPTION_POSITIONS).default('bottom'),
});
export type CaptionStyle = z.infer<typeof captionStyleSchema>;

export const DEFAULT_CAPTION_STYLE: CaptionStyle = Object.freeze({ preset: 'boxed', size: 'medium', position: 'bottom' });

/** What each choice is called on screen. */
export const CAPTION_PRESET_NAMES: Readonly<Record<CaptionPreset, string>> = { boxed: 'Boxed: white on a dark box', classic: 'Classic: white with an outline', bold: 'Bold: large yellow with an outline' };
export const CAPTION_SIZE_NAMES: Readonly<Record<CaptionSize, string>> = { small: 'Small', medium: 'Medium', large: 'Large' };
export const CAPTION_POSITION_NAMES: Readonly<Record<CaptionPosition, string>> = { bottom: 'Bottom', middle: 'Middle', top: 'Top' };

/** POST /api/videos/{id}/burn-captions: the style (default boxed, medium, bottom), or `enabled: false` to take them out. */
export const burnCaptionsRequestSchema = z.object({ style: captionStyleSchema.optional(), enabled: z.boolean().default(true) });
export type BurnCaptionsBody = z.input<typeof burnCaptionsRequestSchema>;
