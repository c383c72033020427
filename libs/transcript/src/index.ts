/**
 * @wordcut/transcript: the transcript domain, pure and browser-safe (no Node APIs), shared by the
 * editor and the services. WebVTT / word-by-word import, paragraphs, filler detection, word deltas.
 */
export * from './errors';
export { parseVtt, parseVttDocument, type VttCue, type VttDocument, type VttTimedWord } from './vtt';
export { MAX_TRANSCRIPT_WARNINGS, type TranscriptWarning } from './warnings';
export * from './build';
export * from './paragraphs';
export * from './fillers';
export * from './edit';
export { isRtl, normalizeLanguageCode, pickLanguage, FALLBACK_LANGUAGE } from './language';
export { normalizeWord, splitWords, isSentenceEnd } from './text';
export { ROLLING_MAX_GAP_SECONDS, ROLLING_MIN_WORD_OVERLAP, ROLLING_MAX_OVERLAP_WORDS } from './rolling';
export { findInconsistencies } from './invariants';
export { srtTimestamp, vttTimestamp, vttEscape, wordsToSrt, wordsToVtt, wordsToWordByWord, regroupWords, type VttExportOptions } from './export';
export { lowerBound, lastWordStartingAtOrBefore, wordIndexAt } from './sorted-search';
export { clampWords, transcriptForVersion } from './follow';
export { tidyKeptWords, type KeptWord } from './tidy';
export { originRuns, indicesAfter, countAfter, type OriginRun } from './origins';
export { CAPTION_FORMAT_NAMES, buildTranscriptFromCaptions, detectCaptionFormat, srtToVtt, whisperSegmentsToVtt, whisperWords, type CaptionFormat } from './captions-import';
export * from './pauses';
export { TRANSCRIPTION_CHUNK_DEFAULTS, TranscriptionAnswerError, joinTranscribedChunks, parseTranscriptionAnswer, planTranscriptionChunks, type TranscribedWord, type TranscriptionAnswer, type TranscriptionChunk, type TranscriptionChunkOptions } from './transcription';
