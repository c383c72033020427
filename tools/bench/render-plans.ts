/** The edits of the render benchmark, pure and deterministic: the cuts, the mutes, the alternatives' filters. */
import { reframeGeometry, type Reframe } from '@wordcut/edit-list';

export const MUTE_VOLUMES = [0, 0.1, 0.3] as const;
export const CLIP_RATIO = '9:16' as const;

/** A source range in frames, [start, end). */
export interface FrameSpan {
  start: number;
  end: number;
}

/**
 * `count` removed ranges of 45-119 frames (1.5-4 s at 30 fps), one in each equal slot of the file at
 * a varying offset, with neither boundary on a multiple of `gop` (a keyframe): every cut lands
 * inside a GOP, the smart renderer's harder case.
 */
export function planCuts(frameCount: number, count: number, gop: number): FrameSpan[] {
  const slot = Math.floor(frameCount / count);
  const offKeyframe = (f: number) => (f % gop === 0 ? f + 7 : f);
  return Array.from({ length: count }, (_, i) => {
    const start = offKeyframe(i * slot + Math.floor(slot / 6) + ((i * 397) % Math.floor(slot / 2)));
    const end = offKeyframe(start + 45 + ((i * 53) % 75));
    if (end >= (i + 1) * slot) throw new Error(`cut ${i} does not fit its slot of ${slot} frames`);
    return { start, end };
  });
}

/** The kept ranges between the removed ones (ascending, non-overlapping). */
export function keptSpans(removed: readonly FrameSpan[], frameCount: number): FrameSpan[] {
  const kept: FrameSpan[] = [];
  let at = 0;
  for (const r of removed) {
    if (r.start > at) kept.push({ start: at, end: r.start });
    at = r.end;
  }
  if (at < frameCount) kept.push({ start: at, end: frameCount });
  return kept;
}

/**
 * `count` ranges of 30 frames (1 s at 30 fps) at volumes 0, 0.1, 0.3 in turn, one per slot; each
 * starts on a multiple of 5 frames, so that it spans whole tone-burst periods (for the level check).
 */
export function planMutes(frameCount: number, count: number): Array<FrameSpan & { volume: number }> {
  const slot = Math.floor(frameCount / count);
  return Array.from({ length: count }, (_, i) => {
    const start = i * slot + 5 * Math.floor((slot / 3 + ((i * 113) % Math.floor(slot / 2))) / 5);
    return { start, end: start + 30, volume: MUTE_VOLUMES[i % MUTE_VOLUMES.length]! };
  });
}

export const sec = (frame: number, fps: number): number => frame / fps;

/**
 * The alternative's filter graph: the decoded video and audio split once per kept range, each copy
 * trimmed to its range with its timestamps reset, and the pieces concatenated. The video trims are
 * set a quarter frame early so that float rounding cannot move a boundary frame in or out (trim
 * keeps frames with start <= pts < end): the alternative keeps exactly the frames ours keeps.
 */
export function trimConcatGraph(kept: readonly FrameSpan[], fps: number): string {
  const n = kept.length;
  const t = (x: number) => Math.max(0, x).toFixed(6);
  const lines = [
    `[0:v:0]split=${n}${kept.map((_, i) => `[v${i}]`).join('')}`,
    `[0:a:0]asplit=${n}${kept.map((_, i) => `[a${i}]`).join('')}`,
    ...kept.flatMap((k, i) => [
      `[v${i}]trim=start=${t((k.start - 0.25) / fps)}:end=${t((k.end - 0.25) / fps)},setpts=PTS-STARTPTS[tv${i}]`,
      `[a${i}]atrim=start=${t(sec(k.start, fps))}:end=${t(sec(k.end, fps))},asetpts=PTS-STARTPTS[ta${i}]`,
    ]),
    `${kept.map((_, i) => `[tv${i}][ta${i}]`).join('')}concat=n=${n}:v=1:a=1[vout][aout]`,
  ];
  return `${lines.join(';\n')}\n`;
}

/** The plain command's filter for a clip's window: crop it (whole source pixels), scale it to the export size. */
export function plainCropFilter(width: number, height: number, reframe: Reframe): string {
  const g = reframeGeometry(width, height, CLIP_RATIO, reframe);
  const cw = Math.round(g.crop.width);
  const ch = Math.round(g.crop.height);
  const x = Math.min(width - cw, Math.round(g.crop.x));
  const y = Math.min(height - ch, Math.round(g.crop.y));
  return `crop=${cw}:${ch}:${x}:${y},scale=${g.width}:${g.height}`;
}
