import type { MediaConfig } from '../config';
import type { IngestTranscription } from './ingest-transcription';
import { OpenAiCompatibleTranscriber } from './transcriber';

/** The ingest's transcription settings from the environment; none without TRANSCRIPTION_URL. */
export function transcriptionFromConfig(config: MediaConfig): { transcription?: IngestTranscription } {
  if (!config.TRANSCRIPTION_URL) return {};
  const transcriber = new OpenAiCompatibleTranscriber({
    baseUrl: config.TRANSCRIPTION_URL,
    model: config.TRANSCRIPTION_MODEL,
    timeoutMs: config.TRANSCRIPTION_TIMEOUT_MS,
    ...(config.TRANSCRIPTION_API_KEY ? { apiKey: config.TRANSCRIPTION_API_KEY } : {}),
  });
  return {
    transcription: {
      transcriber,
      options: {
        format: config.TRANSCRIPTION_AUDIO_FORMAT,
        chunkSec: config.TRANSCRIPTION_CHUNK_SECONDS,
        overlapSec: config.TRANSCRIPTION_OVERLAP_SECONDS,
        maxFileBytes: Math.floor(config.TRANSCRIPTION_MAX_FILE_MB * 1024 * 1024),
      },
    },
  };
}
