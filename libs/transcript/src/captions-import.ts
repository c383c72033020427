/**
 * Captions from anywhere: WebVTT, SubRip (.srt), Whisper and WhisperX JSON, and the word JSON we
 * export (and the provider writes) all become a transcript the same way. Word timings are used
 * where the file has them; cue-only files (SRT, Whisper segments without words) go through the
 * WebVTT reader, which spreads each cue's words by syllables and skips bad cues with warnings.
 */
import type { WordByWordFile } from '@wordcut/contracts';
import { buildTranscriptFromVtt, buildTranscriptFromWordByWord, type BuildOptions, type BuiltTranscript } from './build';
import { TranscriptBuildError } from './errors';
import { vttTimestamp } from './export';

export type CaptionFormat = 'vtt' | 'srt' | 'whisper-json' | 'word-json';

/** The names a person reads in errors and the upload form. */
export const CAPTION_FORMAT_NAMES = 'WebVTT, SubRip (.srt), Whisper or WhisperX JSON, or word-timing JSON';

const SRT_TIMING = /^\s*\d{1,3}:\d{1,2}:\d{1,2}[,.]\d{1,3}\s*-->\s*\d{1,3}:\d{1,2}:\d{1,2}[,.]\d{1,3}/m;

/** Which format a caption file is in, by its content (never its name); null when none fits. */
export function detectCaptionFormat(text: string): CaptionFormat | null {
  const body = text.replace(/^\uFEFF/, '');
  if (/^WEBVTT($|[ \t\r\n])/.test(body)) return 'vtt';
  const start = body.trimStart();
  if (start.startsWith('{')) {
    let json: unknown;
    try {
      json = JSON.parse(start);
    } catch {
      return null;
    }
    if (typeof json !== 'object' || json === null) return null;
    if (Array.isArray((json as { segments?: unknown }).segments)) return 'whisper-json';
    if (Array.isArray((json as { words?: unknown }).words)) return 'word-json';
    return null;
  }
  return SRT_TIMING.test(body) ? 'srt' : null;
}

/** SubRip as WebVTT: the same cues, times with a full stop, cue numbers left as identifiers. */
export function srtToVtt(text: string): string {
  const body = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const lines = body.split('\n').map((line) =>
    SRT_TIMING.test(line) ? line.replace(/(\d{1,3}):(\d{1,2}):(\d{1,2})[,.](\d{1,3})/g, (_, h: string, m: string, s: string, ms: string) => `${h.padStart(2, '0')}:${m.padStart(2, '0')}:${s.padStart(2, '0')}.${ms.padEnd(3, '0')}`) : line,
  );
  return `WEBVTT\n\n${lines.join('\n')}`;
}

interface WhisperWord {
  word?: unknown;
  text?: unknown;
  start?: unknown;
  end?: unknown;
  probability?: unknown;
  score?: unknown;
}
interface WhisperSegment {
  text?: unknown;
  start?: unknown;
  end?: unknown;
  words?: unknown;
}

/**
 * Whisper (`segments[].words[]` with `word`, `start`, `end`, `probability`) or WhisperX (`score`,
 * words without times where it could not align them) as word timings; null when no segment has
 * words (then its segments are cues).
 */
export function whisperWords(json: { language?: unknown; segments: readonly WhisperSegment[] }): WordByWordFile | null {
  const segments = json.segments.filter((s): s is WhisperSegment => typeof s === 'object' && s !== null);
  if (!segments.some((s) => Array.isArray(s.words) && s.words.length > 0)) return null;
  const words = segments.flatMap((s) => (Array.isArray(s.words) ? (s.words as WhisperWord[]) : [])).map((w) => {
    const confidence = typeof w?.probability === 'number' ? w.probability : typeof w?.score === 'number' ? w.score : undefined;
    // a word without times stays as it is: the word-file reader skips it with a warning
    return { text: typeof w?.word === 'string' ? w.word : typeof w?.text === 'string' ? w.text : w?.word, start: w?.start, end: w?.end, ...(confidence !== undefined ? { confidence: Math.min(1, Math.max(0, confidence)) } : {}) };
  });
  return { ...(typeof json.language === 'string' ? { languageCode: json.language } : {}), words } as unknown as WordByWordFile;
}


/** Whisper segments as WebVTT cues (a segment without usable times is left out, and the reader says so). */
export function whisperSegmentsToVtt(json: { segments: readonly WhisperSegment[] }): string {
  const cues = json.segments.map((s) => {
    const ok = typeof s?.start === 'number' && typeof s?.end === 'number' && Number.isFinite(s.start) && Number.isFinite(s.end) && typeof s.text === 'string';
    return ok ? `${vttTimestamp(s.start as number)} --> ${vttTimestamp(s.end as number)}\n${(s.text as string).replace(/\s*\n\s*/g, ' ').trim()}` : `NOTE a segment without times or text was left out`;
  });
  return `WEBVTT\n\n${cues.join('\n\n')}\n`;
}

/** Lines srtToVtt puts before the SubRip text ('WEBVTT' and a blank line). */
const SRT_HEADER_LINES = 2;

/** Warnings and errors of the WebVTT reader on a converted SubRip file name the SubRip file's own lines. */
function onSrtLines(build: () => BuiltTranscript): BuiltTranscript {
  const shift = (line: number | null) => (line === null ? null : Math.max(1, line - SRT_HEADER_LINES));
  const text = (message: string) => message.replace(/\bline (\d+)/g, (_, n: string) => `line ${shift(Number(n))}`);
  try {
    const built = build();
    return { ...built, warnings: built.warnings.map((w) => ({ line: shift(w.line), message: text(w.message) })) };
  } catch (err) {
    if (err instanceof TranscriptBuildError) throw new TranscriptBuildError(err.code, text(err.message), err.line === undefined ? undefined : (shift(err.line) ?? undefined));
    throw err;
  }
}

/** A transcript from a caption file in any of the formats (detected by content); 422-style errors as the readers give them. */
export function buildTranscriptFromCaptions(text: string, opts: BuildOptions = {}): BuiltTranscript {
  const format = detectCaptionFormat(text);
  if (format === 'vtt') return buildTranscriptFromVtt(text, opts);
  if (format === 'srt') return onSrtLines(() => buildTranscriptFromVtt(srtToVtt(text), opts));
  if (format === 'word-json') return buildTranscriptFromWordByWord(JSON.parse(text.replace(/^\uFEFF/, '').trimStart()) as WordByWordFile, opts);
  if (format === 'whisper-json') {
    const json = JSON.parse(text.replace(/^\uFEFF/, '').trimStart()) as { language?: unknown; segments: WhisperSegment[] };
    const words = whisperWords(json);
    const languageHint = typeof json.language === 'string' ? json.language : opts.languageHint;
    return words ? buildTranscriptFromWordByWord(words, opts) : buildTranscriptFromVtt(whisperSegmentsToVtt(json), { ...opts, ...(languageHint ? { languageHint } : {}) });
  }
  throw new TranscriptBuildError('VTT_INVALID', `The caption file is not one WordCut reads: use ${CAPTION_FORMAT_NAMES} (a WebVTT file starts with 'WEBVTT').`);
}
