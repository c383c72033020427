import { SPEECH_AUDIO_BYTES_PER_SECOND, type FfmpegInput, type IngestMediaTools, type SpeechAudioFormat } from '@wordcut/ffmpeg';
import { joinTranscribedChunks, planTranscriptionChunks, type TranscribedWord } from '@wordcut/transcript';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Transcriber } from './transcriber';

export interface TranscribeVideoOptions {
  format: SpeechAudioFormat;
  /** longest stretch sent in one request, and the overlap between neighbours */
  chunkSec: number;
  overlapSec: number;
  /** largest file one request may carry (the endpoint's limit: OpenAI and Groq take 25 MB) */
  maxFileBytes: number;
  /** limit of one ffmpeg extraction */
  ffmpegTimeoutMs: number;
  language?: string;
  signal?: AbortSignal;
  /** after each chunk: how many are done of how many */
  onProgress?: (done: number, total: number) => void;
}

export interface TranscribedVideo {
  words: TranscribedWord[];
  /** ISO 639-1 as the service heard it (the first chunk that says) */
  language: string | null;
  chunks: number;
}

/** The chunk length the file-size limit allows, leaving 5 % for headers and bitrate swings. */
export function chunkSecFor(o: Pick<TranscribeVideoOptions, 'format' | 'chunkSec' | 'maxFileBytes' | 'overlapSec'>): number {
  const fits = Math.floor((o.maxFileBytes * 0.95) / SPEECH_AUDIO_BYTES_PER_SECOND[o.format]);
  return Math.max(Math.min(o.chunkSec, fits), Math.max(10, 2 * o.overlapSec + 1));
}

/**
 * Transcribes the first audio stream of a video: chunk by chunk (each a small mono file, removed
 * once answered), then the answers joined on word boundaries in the overlaps. Chunks go one at a
 * time, so one video never holds more than one request at the service.
 */
export async function transcribeVideo(tools: IngestMediaTools, transcriber: Transcriber, input: FfmpegInput, durationSec: number, workDir: string, o: TranscribeVideoOptions): Promise<TranscribedVideo> {
  const chunks = planTranscriptionChunks(durationSec, { chunkSec: chunkSecFor(o), overlapSec: o.overlapSec });
  const parts: { chunk: (typeof chunks)[number]; words: TranscribedWord[] }[] = [];
  let language: string | null = null;
  o.onProgress?.(0, chunks.length);
  for (const chunk of chunks) {
    const fileName = `chunk-${chunk.index}.${o.format}`;
    const path = join(workDir, fileName);
    try {
      await tools.extractSpeechAudio(input, path, {
        format: o.format,
        startSec: chunk.startSec,
        durationSec: Math.max(0.1, chunk.endSec - chunk.startSec),
        maxBytes: o.maxFileBytes,
        timeoutMs: o.ffmpegTimeoutMs,
        ...(o.signal ? { signal: o.signal } : {}),
      });
      const answer = await transcriber.transcribe({ path, format: o.format, fileName, ...(o.language ? { language: o.language } : {}), ...(o.signal ? { signal: o.signal } : {}) });
      language ??= answer.language;
      parts.push({ chunk, words: answer.words });
    } finally {
      await rm(path, { force: true });
    }
    o.onProgress?.(chunk.index + 1, chunks.length);
  }
  return { words: joinTranscribedChunks(parts), language, chunks: chunks.length };
}
