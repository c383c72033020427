/**
 * A render of kept source ranges (play order) with gains into an MP4, the fastest exact way:
 * - smart: whole GOPs inside the kept ranges copied as bytes of the original, the partial GOPs at
 *   each cut re-encoded with the source's parameters, the MP4 composed from both (smart.ts);
 * - copy-video: the same with nothing cut (only gains);
 * - reencode: one decode/encode pass (open GOPs, other codecs, reframing, burned captions;
 *   reencode.ts).
 * Every path is frame-exact and keeps each frame's time: a segment keeps the frames from the
 * boundary nearest its start to the one nearest its end (at a constant rate round(start*fps) ..
 * round(end*fps)-1), and they play for as long as they did in the source. The planning is pure
 * (plan.ts, choose.ts, commands.ts); this module runs it.
 */
import { mediaInput } from '../input';
import { audioModeOf, fpsOf, frameClockOf, frameStartTicks, renderBlocker } from './choose';
import { readRenderMediaInfo } from './media-info';
import { clockTime, segmentsToFrameRanges } from './plan';
import { renderReencode } from './reencode';
import { renderSmart } from './smart';
import { readSourceLayout } from './smart-compose';
import type { MadeAudio } from './audio-track';
import type { RenderJob, RenderRequest, RenderResult } from './types';

export { smartRenderBlocker } from './choose';
export type { RenderPath, RenderRequest, RenderResult } from './types';

const audioResult = (a: MadeAudio): Pick<RenderResult, 'audio' | 'audioFallbackReason' | 'audioSplice'> => ({
  audio: a.mode,
  audioFallbackReason: a.fallbackReason,
  ...(a.splice ? { audioSplice: a.splice } : {}),
});

export async function renderEdit(req: RenderRequest): Promise<RenderResult> {
  const started = Date.now();
  const source = mediaInput(req.input);
  const info = req.info ?? (await readRenderMediaInfo(source, { signal: req.signal }));
  const video = info.video;
  if (!video) throw new Error('the source has no video stream');
  const fps = fpsOf(video);
  const clock = frameClockOf(video);
  if (!fps || clock === null) throw new Error('the source frame rate is unknown');
  const frameCount = video.framePts.length;
  const ranges = segmentsToFrameRanges(req.segments, clock, frameCount);
  if (ranges.length === 0) throw new Error('nothing to render: the edit keeps no frames');
  const volumes = (req.volumes ?? []).filter((x) => x.end > x.start && x.volume !== 1);
  const totalFrames = ranges.reduce((n, r) => n + r.end - r.start, 0);
  const tb = video.timeBase.num / video.timeBase.den;
  const ticks = frameStartTicks(video);
  const firstSec = video.framePts[0]! * tb - info.startTime;
  const outputSec = ranges.reduce((s, r) => s + clockTime(clock, r.end) - clockTime(clock, r.start), 0);
  const job: RenderJob = {
    req,
    source,
    info,
    video,
    fps,
    clock,
    ticks,
    secOf: (frame) => ticks[frame]! * tb + firstSec,
    outputSec,
    ranges,
    volumes,
    audioMode: audioModeOf(info, volumes.length > 0),
    timeoutMs: req.timeoutMs ?? 2 * 3600_000,
    progress: req.onProgress ?? (() => undefined),
  };

  // The smart path composes the output from the original's samples: its tables must agree with
  // what ffprobe saw (else the full re-encode, which reads frames, not bytes).
  const blocker = renderBlocker(req, info);
  const layout = blocker === null ? await readSourceLayout(req.input, info) : null;
  const base = { fallbackReason: typeof layout === 'string' ? layout : blocker, totalFrames, outputDurationSec: outputSec, fps } as const;
  if (layout === null || typeof layout === 'string') {
    req.onPath?.('reencode');
    const made = await renderReencode(job);
    return { ...base, path: 'reencode', ...audioResult(made), encodedFrames: totalFrames, encodedShare: 1, durationMs: Date.now() - started };
  }
  const identity = ranges.length === 1 && ranges[0]!.start === 0 && ranges[0]!.end === frameCount;
  const path = identity ? 'copy-video' : 'smart';
  req.onPath?.(path);
  const smart = await renderSmart(job, layout);
  return { ...base, path, ...audioResult(smart.audio), encodedFrames: smart.encodedFrames, encodedShare: smart.encodedShare, durationMs: Date.now() - started, pieces: smart.pieces };
}
