/**
 * `POST /v1/audio/transcriptions`: a stand-in for an OpenAI-compatible speech-to-text endpoint.
 * It recognises no speech. It answers only for audio of media whose script it knows (the `.mp4`
 * files of the media directory with a `.words.json` or `.vtt` beside them, such as the demo): the
 * upload's loudness envelope is matched against theirs (transcription-match.ts) and the script's
 * words of that stretch are answered, in the upload's time, as OpenAI's `verbose_json` (or `json`).
 * Anything else is a 400 `unknown_audio`. Errors are in OpenAI's shape.
 */
import { timingSafeEqual } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type http from 'node:http';
import { tmpdir } from 'node:os';
import { basename, extname, join } from 'node:path';
import { ENERGY_FRAMES_PER_SECOND } from '@wordcut/contracts';
import { computePeaks, FfmpegAbortedError, MediaProbeError, NoAudioError, SPEECH_AUDIO_FORMATS, speechAudioInput, type PeaksResult, type SpeechAudioFormat } from '@wordcut/ffmpeg';
import { ConnectionCut, header, sendJson } from './http';
import type { Ctx, Route } from './routing';
import type { SandboxState } from './state';
import { verboseTranscription, wordsOfStretch } from './transcription-answer';
import { findKnownAudio } from './transcription-match';
import { KnownMediaIndex, type KnownMedia } from './transcription-media';
import { OpenAiError, readTranscriptionForm, sendOpenAiError, type TranscriptionForm } from './transcription-upload';

export const UNKNOWN_AUDIO_MESSAGE =
  'The sandbox transcribes only media whose script it knows (the .mp4 files of its media directory that have captions, such as the demo); this audio matches none of them.';

/** The upload may run this far past a media's end (encoder padding, a last chunk). */
const MAX_OVERHANG_FRAMES = ENERGY_FRAMES_PER_SECOND;
const DECODE_TIMEOUT_MS = 60_000;

export function transcriptionRoutes(s: SandboxState): Route[] {
  const known = new KnownMediaIndex(s.o.mediaDir);
  return [
    {
      method: ['POST'],
      path: /^\/v1\/audio\/transcriptions$/,
      readsBody: true,
      handle: (ctx) => transcribe(ctx, known, s.o.transcriptionApiKey),
    },
  ];
}

async function transcribe({ req, res, body }: Ctx, known: KnownMediaIndex, apiKey: string | undefined): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'wordcut-sandbox-transcription-'));
  const gone = new AbortController();
  res.once('close', () => gone.abort());
  try {
    checkApiKey(req, apiKey);
    const form = await readTranscriptionForm(req, body, dir);
    const responseFormat = field(form, 'response_format') ?? 'json';
    if (responseFormat !== 'json' && responseFormat !== 'verbose_json') {
      throw new OpenAiError(400, `The sandbox answers response_format 'verbose_json' or 'json', not '${responseFormat}'.`, 'unsupported_value', 'response_format');
    }
    const audio = await decodeUpload(form, gone.signal);
    const media = await known.list();
    const found = findKnownAudio(audio.energy, media.map((m) => ({ id: m, energy: m.energy })), { maxOverhangFrames: MAX_OVERHANG_FRAMES });
    if (!found) throw new OpenAiError(400, UNKNOWN_AUDIO_MESSAGE, 'unknown_audio', 'file');
    const offsetSec = found.offsetFrames / ENERGY_FRAMES_PER_SECOND;
    const script = await scriptOf(known, found.id);
    const answer = verboseTranscription(wordsOfStretch(script.words, offsetSec, audio.durationSec), audio.durationSec, script.languageCode);
    // which media and where, for whoever debugs a test
    const headers = { 'x-sandbox-transcription-match': `${found.id.name}.mp4 at ${offsetSec.toFixed(2)} s (r=${found.score.toFixed(3)})` };
    sendJson(res, 200, responseFormat === 'json' ? { text: answer.text } : answer, headers);
  } catch (e) {
    if (e instanceof ConnectionCut || res.destroyed) throw e;
    sendOpenAiError(res, e instanceof OpenAiError ? e : new OpenAiError(500, `The sandbox could not transcribe the audio: ${(e as Error).message}`, null));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** With a key configured, `Authorization: Bearer <key>` is required; without one, anything goes. */
function checkApiKey(req: http.IncomingMessage, apiKey: string | undefined): void {
  if (!apiKey) return;
  const given = /^Bearer\s+(.+)$/i.exec(header(req, 'authorization') ?? '')?.[1]?.trim() ?? '';
  const a = Buffer.from(given);
  const b = Buffer.from(apiKey);
  if (a.length !== b.length || !timingSafeEqual(a, b)) {
    throw new OpenAiError(401, given ? 'Incorrect API key provided.' : "You didn't provide an API key: send 'Authorization: Bearer <key>'.", 'invalid_api_key');
  }
}

/** A field's first value. */
function field(form: TranscriptionForm, name: string): string | undefined {
  return form.fields.get(name)?.[0];
}

/** The upload's envelope: decoded as the format its file name says (mp3, wav or flac). */
async function decodeUpload(form: TranscriptionForm, signal: AbortSignal): Promise<PeaksResult> {
  const file = form.file;
  if (!file) throw new OpenAiError(400, "Attach the audio in the field 'file'.", 'missing_file', 'file');
  const ext = extname(file.filename).slice(1).toLowerCase();
  if (!(SPEECH_AUDIO_FORMATS as readonly string[]).includes(ext)) {
    throw new OpenAiError(400, `Invalid file format: the sandbox reads ${SPEECH_AUDIO_FORMATS.join(', ')} (named by the file name's extension; got '${file.filename}').`, 'invalid_file_format', 'file');
  }
  if (file.bytes === 0) throw new OpenAiError(400, 'The audio file is empty.', 'invalid_file_format', 'file');
  try {
    return await computePeaks(speechAudioInput(file.path, ext as SpeechAudioFormat), { peaksPerSecond: 1, timeoutMs: DECODE_TIMEOUT_MS, signal });
  } catch (e) {
    if (e instanceof MediaProbeError || e instanceof NoAudioError) {
      throw new OpenAiError(400, `The audio file could not be decoded as ${ext}${e instanceof MediaProbeError ? `: ${e.reason}` : ': it has no audio'}.`, 'invalid_file_format', 'file');
    }
    if (e instanceof FfmpegAbortedError) throw new ConnectionCut();
    throw e;
  }
}

async function scriptOf(known: KnownMediaIndex, media: KnownMedia): ReturnType<KnownMediaIndex['script']> {
  try {
    return await known.script(media);
  } catch (e) {
    throw new OpenAiError(500, `The audio is ${media.name}.mp4, whose script (${basename(media.script)}) could not be read: ${(e as Error).message}`, null);
  }
}
