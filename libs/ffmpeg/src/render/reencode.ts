/**
 * The full re-encode: one decode/encode pass of the kept frames (reencodeCommand), with the audio
 * (copied packets, spliced gains, or cut at exact samples and encoded: makeAudio) made beside it
 * and joined by copying, so the encode does not wait for the audio first.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MediaProbeError } from '../errors';
import { machineCpus } from '../cpus';
import { runFfmpeg } from '../run-ffmpeg';
import { makeAudio, type MadeAudio } from './audio-track';
import { joinCommand, PIECE_RECIPE, reencodeCommand } from './commands';
import { faststartArgs, type RenderJob } from './types';

export async function renderReencode(job: RenderJob): Promise<MadeAudio> {
  const { req, info, video: v, clock, ranges, progress, timeoutMs } = job;
  let assFile: string | null = null;
  if (req.assScript) {
    assFile = join(req.workDir, 'captions.ass');
    await writeFile(assFile, req.assScript);
  }
  const audioTask = info.audio ? makeAudio({ req, info, clock, ranges, volumes: job.volumes, mode: job.audioMode, timeoutMs, adtsCacheKey: req.cache ? `${req.cache.sourceId}|${PIECE_RECIPE}|adts` : null }) : null;
  audioTask?.catch(() => undefined);
  const videoOut = audioTask ? join(req.workDir, 'video-only.mp4') : req.output;
  let command;
  try {
    command = reencodeCommand({
      source: job.source,
      video: v,
      secOf: job.secOf,
      ticks: job.ticks,
      ranges,
      videoFilter: req.videoFilter,
      assFile,
      crf: req.crf,
      threads: req.concurrency ?? machineCpus(),
      output: videoOut,
      muxArgs: audioTask ? [] : faststartArgs(req),
    });
  } catch (e) {
    if (e instanceof RangeError) throw new MediaProbeError('UNSAFE_STRUCTURE', e.message, 'the edit');
    throw e;
  }
  const graphFile = join(req.workDir, 'graph.txt');
  await writeFile(graphFile, command.graph);
  await runFfmpeg({
    inputs: command.inputs,
    args: ['-filter_complex_script', graphFile, ...command.args],
    timeoutMs,
    signal: req.signal,
    durationSec: job.outputSec,
    onProgress: (p) => p.percent !== null && progress(5 + p.percent * 0.9, 'Rendering'),
  });
  const made: MadeAudio = audioTask ? await audioTask : { input: null, mode: 'none', fallbackReason: null };
  if (audioTask) {
    progress(96, 'Joining audio and video');
    await runFfmpeg({ ...joinCommand(videoOut, made.input, req.output, faststartArgs(req), made.startSec), timeoutMs, signal: req.signal });
  }
  progress(100, 'Done');
  return made;
}
