/**
 * Burned-in captions: an ASS script (rendered by libass through ffmpeg's `ass` filter) made from
 * timed words in one of three looks (boxed, classic, bold; three sizes; bottom, middle or top inside
 * the title-safe area), at most two lines of ~42 characters.
 */

export interface CaptionWord {
  text: string;
  start: number;
  end: number;
}

export interface CaptionCue {
  start: number;
  end: number;
  lines: string[];
}

export interface CaptionLayout {
  /** Characters per line before wrapping. Default 42. */
  maxLineChars?: number;
  /** Lines per cue. Default 2. */
  maxLines?: number;
  /** A pause longer than this starts a new cue. Default 0.8 s. */
  maxGapSec?: number;
  /** Longest cue. Default 6 s. */
  maxCueSec?: number;
}

/** Groups words into cues: new cue on a long pause, a sentence end after some text, or when full. */
export function buildCaptionCues(words: readonly CaptionWord[], layout: CaptionLayout = {}): CaptionCue[] {
  const maxChars = layout.maxLineChars ?? 42;
  const maxLines = layout.maxLines ?? 2;
  const maxGap = layout.maxGapSec ?? 0.8;
  const maxCue = layout.maxCueSec ?? 6;
  const cues: CaptionCue[] = [];
  let cur: { start: number; end: number; lines: string[] } | null = null;
  const flush = (): void => {
    if (cur && cur.lines.some((l) => l.length > 0)) cues.push({ start: cur.start, end: cur.end, lines: cur.lines.filter((l) => l.length > 0) });
    cur = null;
  };
  for (const w of words) {
    const text = w.text.trim();
    if (!text || !(w.end >= w.start)) continue;
    if (cur && (w.start - cur.end > maxGap || w.end - cur.start > maxCue)) flush();
    if (!cur) cur = { start: w.start, end: w.end, lines: [''] };
    const c: { start: number; end: number; lines: string[] } = cur;
    const last = c.lines[c.lines.length - 1]!;
    if (last.length > 0 && last.length + 1 + text.length > maxChars) {
      if (c.lines.length >= maxLines) {
        flush();
        cur = { start: w.start, end: w.end, lines: [text] };
        continue;
      }
      c.lines.push(text);
    } else c.lines[c.lines.length - 1] = last ? `${last} ${text}` : text;
    c.end = Math.max(c.end, w.end);
    if (/[.!?]["')\]]*$/.test(text) && c.lines.join(' ').length >= maxChars * 0.6) flush();
  }
  flush();
  // Cues never overlap: each ends no later than the next begins.
  for (let i = 0; i + 1 < cues.length; i++) cues[i]!.end = Math.min(cues[i]!.end, cues[i + 1]!.start);
  return cues.filter((c) => c.end > c.start);
}

/** `H:MM:SS.cc` as ASS wants it (centiseconds). */
export function assTime(sec: number): string {
  const cs = Math.max(0, Math.round(sec * 100));
  const h = Math.floor(cs / 360000);
  const m = Math.floor((cs % 360000) / 6000);
  const s = Math.floor((cs % 6000) / 100);
  const c = cs % 100;
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}.${String(c).padStart(2, '0')}`;
}

/** Text safe inside an ASS Dialogue: override braces and backslashes neutralised. */
export function assEscape(text: string): string {
  return text
    .replace(/\\/g, '\\\u200b')
    .replace(/\{/g, '(')
    .replace(/\}/g, ')')
    .replace(/\r\n|\r|\n/g, ' ')
    .split(String.fromCharCode(0))
    .join('');
}

/** How burned captions look: a preset, a size and a position (the edit version's setting). */
export interface CaptionLook {
  preset: 'boxed' | 'classic' | 'bold';
  size: 'small' | 'medium' | 'large';
  position: 'bottom' | 'middle' | 'top';
}

export const DEFAULT_CAPTION_LOOK: CaptionLook = { preset: 'boxed', size: 'medium', position: 'bottom' };

/** Font size as a share of the frame height, per size (bold is a step larger). */
const SIZE_SHARE: Record<CaptionLook['size'], number> = { small: 0.042, medium: 0.052, large: 0.066 };
/**
 * Distance from the frame's edge as a share of its height: inside the title-safe area (10 %) and,
 * at the bottom, above where a player draws its controls (about 12 %).
 */
const BOTTOM_MARGIN_SHARE = 0.14;
const TOP_MARGIN_SHARE = 0.1;
/** ASS numpad alignment per position (centred horizontally). */
const ALIGNMENT: Record<CaptionLook['position'], number> = { bottom: 2, middle: 5, top: 8 };

/**
 * A complete ASS script for a `width`x`height` frame in `look`: boxed is white on a
 * half-transparent dark box (libass BorderStyle 3, the box in the outline colour); classic is
 * white with a black outline and soft shadow; bold is yellow, larger, with a thicker outline.
 */
export function buildAssScript(cues: readonly CaptionCue[], width: number, height: number, font = 'DejaVu Sans', look: CaptionLook = DEFAULT_CAPTION_LOOK): string {
  const share = SIZE_SHARE[look.size] * (look.preset === 'bold' ? 1.15 : 1);
  const size = Math.max(12, Math.round(height * share));
  const outline = Math.max(1, Math.round(size * (look.preset === 'bold' ? 0.12 : look.preset === 'boxed' ? 0.22 : 0.08)));
  const shadow = look.preset === 'boxed' ? 0 : Math.max(1, Math.round(outline / 2));
  const marginV = Math.round(height * (look.position === 'top' ? TOP_MARGIN_SHARE : look.position === 'bottom' ? BOTTOM_MARGIN_SHARE : 0));
  const marginH = Math.round(width * 0.06);
  const primary = look.preset === 'bold' ? '&H0000E5FF' : '&H00FFFFFF';
  const outlineColour = look.preset === 'boxed' ? '&H40000000' : '&H00000000';
  const borderStyle = look.preset === 'boxed' ? 3 : 1;
  const header = [
    '[Script Info]',
    'ScriptType: v4.00+',
    `PlayResX: ${width}`,
    `PlayResY: ${height}`,
    'WrapStyle: 2',
    'ScaledBorderAndShadow: yes',
    '',
    '[V4+ Styles]',
    'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding',
    `Style: Default,${font},${size},${primary},${primary},${outlineColour},&H80000000,1,0,0,0,100,100,0,0,${borderStyle},${outline},${shadow},${ALIGNMENT[look.position]},${marginH},${marginH},${marginV},1`,
    '',
    '[Events]',
    'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
  ];
  const events = cues.map((c) => `Dialogue: 0,${assTime(c.start)},${assTime(c.end)},Default,,0,0,0,,${c.lines.map(assEscape).join('\\N')}`);
  return [...header, ...events, ''].join('\n');
}
