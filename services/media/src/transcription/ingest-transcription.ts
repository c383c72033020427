import type { WordByWordFile } from '@wordcut/contracts';
import type { FfmpegInput, IngestMediaTools } from '@wordcut/ffmpeg';
import { readObjectBytes, type ObjectStorage } from '@wordcut/storage';
import { buildTranscriptFromWordByWord, type BuiltTranscript } from '@wordcut/transcript';
import { IngestFailure } from '../ingest-failure';
import { transcribeVideo, type TranscribeVideoOptions } from './transcribe-video';
import { TranscriptionServiceError, type Transcriber } from './transcriber';

/** How the ingest reaches a transcription service (unset: a video needs captions). */
export interface IngestTranscription {
  transcriber: Transcriber;
  options: Omit<TranscribeVideoOptions, 'language' | 'signal' | 'onProgress' | 'ffmpegTimeoutMs'>;
}

export const TranscriptionMessages = {
  NO_AUDIO: 'The video has no sound, so there is nothing to transcribe. Upload it with a caption file instead.',
  NO_SPEECH: 'No speech was heard in this video, so there is no transcript to edit.',
  failed: (reason: string) => `The video could not be transcribed: ${reason} Try 'Retry transcription', or upload a caption file.`,
} as const;

export interface TranscribeForIngestInput {
  storage: ObjectStorage;
  tools: IngestMediaTools;
  transcription: IngestTranscription;
  input: FfmpegInput;
  durationSec: number;
  hasAudio: boolean;
  /** where the heard words are kept (a redelivery reads them back instead of asking again) */
  wordsKey: string;
  workDir: string;
  ffmpegTimeoutMs: number;
  languageHint?: string;
  onProgress: (fraction: number) => void;
}

/**
 * The transcript of a video without captions, from what the transcription service hears. The
 * words are stored as word JSON before the transcript is built, so a redelivered ingest pays for
 * the service once. A refusal by the service fails the ingest with its reason; a rate limit, 5xx
 * or timeout is thrown as it is, so the ingest is redelivered.
 */
export async function transcribeForIngest(i: TranscribeForIngestInput): Promise<BuiltTranscript> {
  if (!i.hasAudio) throw new IngestFailure('NO_AUDIO', TranscriptionMessages.NO_AUDIO);
  const opts = i.languageHint ? { languageHint: i.languageHint } : {};
  const kept = await readObjectBytes(i.storage, i.wordsKey);
  let file: WordByWordFile;
  if (kept) {
    file = JSON.parse(Buffer.from(kept).toString('utf8')) as WordByWordFile;
  } else {
    const language = i.languageHint?.slice(0, 2).toLowerCase();
    let heard;
    try {
      heard = await transcribeVideo(i.tools, i.transcription.transcriber, i.input, i.durationSec, i.workDir, {
        ...i.transcription.options,
        ffmpegTimeoutMs: i.ffmpegTimeoutMs,
        ...(language && /^[a-z]{2}$/.test(language) ? { language } : {}),
        onProgress: (done, total) => i.onProgress(total === 0 ? 1 : done / total),
      });
    } catch (err) {
      if (err instanceof TranscriptionServiceError && err.permanent) throw new IngestFailure('TRANSCRIPTION_FAILED', TranscriptionMessages.failed(err.message), { cause: err });
      throw err;
    }
    file = { ...(heard.language ? { languageCode: heard.language } : {}), words: heard.words.map((w) => ({ text: w.text, start: w.start, end: w.end, ...(w.confidence !== undefined ? { confidence: w.confidence } : {}) })) };
    await i.storage.upload(i.wordsKey, Buffer.from(JSON.stringify(file)), { contentType: 'application/json' });
  }
  if (file.words.length === 0) throw new IngestFailure('NO_SPEECH', TranscriptionMessages.NO_SPEECH);
  return buildTranscriptFromWordByWord(file, opts);
}
