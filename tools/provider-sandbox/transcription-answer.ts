/**
 * The words of a stretch of a known script as OpenAI's `verbose_json` transcription answer. Pure.
 */
import { isSentenceEnd } from '@wordcut/transcript';

export interface ScriptWord {
  text: string;
  start: number;
  end: number;
}

export interface VerboseTranscription {
  task: 'transcribe';
  language: string;
  duration: number;
  text: string;
  words: { word: string; start: number; end: number }[];
  segments: { id: number; seek: number; start: number; end: number; text: string }[];
}

/** A pause longer than this starts a new segment. */
export const SEGMENT_GAP_SEC = 1;

const ms = (t: number): number => Math.round(t * 1000) / 1000;

/**
 * The words whose middle is in [offset, offset + duration], moved to the chunk's time (−offset,
 * kept inside 0..duration), rounded to ms.
 */
export function wordsOfStretch(words: readonly ScriptWord[], offsetSec: number, durationSec: number): ScriptWord[] {
  const end = offsetSec + durationSec;
  return words
    .filter((w) => {
      const mid = (w.start + w.end) / 2;
      return mid >= offsetSec && mid <= end;
    })
    .map((w) => ({
      text: w.text,
      start: ms(Math.min(durationSec, Math.max(0, w.start - offsetSec))),
      end: ms(Math.min(durationSec, Math.max(0, w.end - offsetSec))),
    }));
}

/** OpenAI's name of a language ('en-US' → 'english'); 'english' when it has none. */
export function languageName(code: string | undefined): string {
  const primary = (code ?? '').split(/[-_]/)[0]!.toLowerCase();
  if (!/^[a-z]{2,3}$/.test(primary)) return 'english';
  try {
    const name = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' }).of(primary);
    return name ? name.toLowerCase() : 'english';
  } catch {
    return 'english';
  }
}

/** Segments: runs of words, split after a sentence end or before a pause over SEGMENT_GAP_SEC. */
function segmentsOf(words: readonly ScriptWord[]): VerboseTranscription['segments'] {
  const runs: ScriptWord[][] = [];
  let run: ScriptWord[] = [];
  for (const w of words) {
    const prev = run[run.length - 1];
    if (prev && w.start - prev.end > SEGMENT_GAP_SEC) {
      runs.push(run);
      run = [];
    }
    run.push(w);
    if (isSentenceEnd(w.text)) {
      runs.push(run);
      run = [];
    }
  }
  if (run.length) runs.push(run);
  return runs.map((r, id) => ({ id, seek: 0, start: r[0]!.start, end: r[r.length - 1]!.end, text: ` ${r.map((w) => w.text).join(' ')}` }));
}

/** The verbose_json answer for these (chunk-relative) words. */
export function verboseTranscription(words: readonly ScriptWord[], durationSec: number, languageCode?: string): VerboseTranscription {
  return {
    task: 'transcribe',
    language: languageName(languageCode),
    duration: ms(durationSec),
    text: words.map((w) => w.text).join(' '),
    words: words.map((w) => ({ word: w.text, start: w.start, end: w.end })),
    segments: segmentsOf(words),
  };
}
