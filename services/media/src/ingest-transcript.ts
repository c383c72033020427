import type { WordByWordFile } from '@wordcut/contracts';
import { buildTranscriptFromCaptions, buildTranscriptFromWordByWord, TranscriptBuildError, type BuiltTranscript } from '@wordcut/transcript';
import { IngestFailure, IngestMessages } from './ingest-failure';

/** What the gateway loads from StorageKeys.ingestTranscript: {languageCode, words, paragraphs, fillerWords}. */
export type IngestTranscript = BuiltTranscript;

/** The caption files an ingest has: a WebVTT text and/or the provider's word-by-word JSON text. */
export interface CaptionTexts {
  vtt?: string;
  wordByWord?: string;
}

/**
 * Builds the transcript from the captions a video came with, preferring the word-by-word file
 * (exact word timings) over the VTT. Pure. Bad files throw TranscriptBuildError (from
 * @wordcut/transcript, which validates them) or IngestFailure, both with a message for the person.
 */
export function buildIngestTranscript(captions: CaptionTexts, languageHint?: string): IngestTranscript {
  const opts = languageHint ? { languageHint } : {};
  if (captions.wordByWord !== undefined) {
    let json: unknown;
    try {
      json = JSON.parse(captions.wordByWord.replace(/^\uFEFF/, ''));
    } catch {
      throw new TranscriptBuildError('WORDS_INVALID', 'The word-by-word file is not valid JSON.');
    }
    return buildTranscriptFromWordByWord(json as WordByWordFile, opts);
  }
  // the caption file of an upload: WebVTT, SubRip, Whisper/WhisperX or word JSON, told apart by content
  if (captions.vtt !== undefined) return buildTranscriptFromCaptions(captions.vtt, opts);
  throw new IngestFailure('NO_CAPTIONS', IngestMessages.NO_CAPTIONS);
}
