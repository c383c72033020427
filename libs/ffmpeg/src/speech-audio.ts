import { toFfmpegInput } from './args';
import { withInputOptions, type FfmpegCommand, type FfmpegInput, type SpeechAudioFormat } from './input';
import { runFfmpeg } from './run-ffmpeg';

/** What speech-to-text models are trained on: 16 kHz mono. */
export const SPEECH_SAMPLE_RATE = 16_000;

/** Bytes one second of speech audio takes in each format (FLAC at most the WAV's). */
export const SPEECH_AUDIO_BYTES_PER_SECOND: Readonly<Record<SpeechAudioFormat, number>> = { mp3: 6_000, wav: 32_000, flac: 32_000 };

const CODEC_ARGS: Readonly<Record<SpeechAudioFormat, readonly string[]>> = {
  mp3: ['-c:a', 'libmp3lame', '-b:a', '48k', '-f', 'mp3'],
  wav: ['-c:a', 'pcm_s16le', '-f', 'wav'],
  flac: ['-c:a', 'flac', '-f', 'flac'],
};

export const SPEECH_AUDIO_CONTENT_TYPES: Readonly<Record<SpeechAudioFormat, string>> = { mp3: 'audio/mpeg', wav: 'audio/wav', flac: 'audio/flac' };

export interface SpeechAudioOptions {
  format: SpeechAudioFormat;
  /** the stretch of the media's timeline, in seconds */
  startSec: number;
  durationSec: number;
  /** the output is cut at this size (ffmpeg `-fs`), whatever the input claims */
  maxBytes: number;
}

/**
 * The first audio stream of [start, start + duration) as 16 kHz mono speech audio. Sample 0 is at
 * `startSec` of the player's timeline (audio that starts late is preceded by silence), so word
 * times from a transcription of it add `startSec` to land on the video's timeline.
 */
export function speechAudioCommand(input: FfmpegInput, output: string, o: SpeechAudioOptions): FfmpegCommand {
  if (!(o.startSec >= 0) || !(o.durationSec > 0) || !Number.isFinite(o.startSec + o.durationSec)) throw new RangeError(`invalid speech audio stretch ${o.startSec}+${o.durationSec}`);
  if (!Number.isInteger(o.maxBytes) || o.maxBytes <= 0) throw new RangeError(`invalid speech audio size limit ${o.maxBytes}`);
  const seek = o.startSec > 0 ? ['-ss', o.startSec.toFixed(3)] : [];
  return {
    inputs: [withInputOptions(input, ...seek, '-t', o.durationSec.toFixed(3))],
    args: [
      '-map', '0:a:0', '-vn', '-sn', '-dn',
      '-af', 'aresample=async=1:first_pts=0',
      '-ac', '1', '-ar', String(SPEECH_SAMPLE_RATE),
      ...CODEC_ARGS[o.format],
      '-fs', String(o.maxBytes),
      toFfmpegInput(output),
    ],
  };
}

/** Writes the speech audio of a stretch of media to `output` (see speechAudioCommand). */
export async function extractSpeechAudio(
  input: FfmpegInput,
  output: string,
  o: SpeechAudioOptions & { timeoutMs: number; signal?: AbortSignal; binary?: string },
): Promise<void> {
  const cmd = speechAudioCommand(input, output, o);
  await runFfmpeg({ inputs: cmd.inputs, args: cmd.args, timeoutMs: o.timeoutMs, signal: o.signal, binary: o.binary, durationSec: o.durationSec });
}
