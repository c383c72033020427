/**
 * Speech-to-text in chunks: the plan of overlapping audio chunks sent to an OpenAI-compatible
 * `/v1/audio/transcriptions` endpoint (verbose_json with word timestamps), the reader of its
 * answers, and the join of the chunks' words into one word list on the video's timeline.
 */
import { normalizeWord, roundTime } from './text';

export interface TranscriptionChunk {
  index: number;
  startSec: number;
  endSec: number;
}

export interface TranscriptionChunkOptions {
  chunkSec?: number;
  overlapSec?: number;
}

export const TRANSCRIPTION_CHUNK_DEFAULTS = { chunkSec: 600, overlapSec: 5 } as const;

/** Shortest chunk length accepted. */
const MIN_CHUNK_SEC = 10;
/** Most chunks one plan may have. */
const MAX_CHUNKS = 10_000;

/**
 * Chunks covering [0, durationSec]; each (but the last) overlaps the next by overlapSec; one chunk
 * when the video fits. The last chunk must bring at least max(2 × overlap, chunkSec / 10) of new
 * audio; when it would bring less, all chunks are made equally long instead (never longer than chunkSec).
 */
export function planTranscriptionChunks(durationSec: number, opts: TranscriptionChunkOptions = {}): TranscriptionChunk[] {
  const chunkSec = opts.chunkSec ?? TRANSCRIPTION_CHUNK_DEFAULTS.chunkSec;
  const overlapSec = opts.overlapSec ?? TRANSCRIPTION_CHUNK_DEFAULTS.overlapSec;
  if (!Number.isFinite(durationSec) || durationSec < 0) throw new RangeError(`The duration must be a finite number of seconds, at least 0 (got ${durationSec}).`);
  if (!Number.isFinite(chunkSec) || chunkSec < MIN_CHUNK_SEC) throw new RangeError(`The chunk length must be at least ${MIN_CHUNK_SEC} s (got ${chunkSec}).`);
  if (!Number.isFinite(overlapSec) || overlapSec < 0 || overlapSec >= chunkSec / 2) throw new RangeError(`The chunk overlap must be at least 0 s and less than half the chunk length (got ${overlapSec} s for ${chunkSec} s chunks).`);
  if (durationSec <= chunkSec) return [{ index: 0, startSec: 0, endSec: durationSec }];

  const stride = chunkSec - overlapSec;
  // fewest chunks whose last one reaches the end: (count - 1) * stride + chunkSec >= duration
  const count = Math.max(2, Math.ceil((durationSec - overlapSec) / stride));
  if (count > MAX_CHUNKS) throw new RangeError(`A ${durationSec} s video would need ${count} chunks of ${chunkSec} s; at most ${MAX_CHUNKS} are allowed.`);
  const newAudioInLast = durationSec - ((count - 2) * stride + chunkSec);
  const minNewAudio = Math.max(2 * overlapSec, chunkSec / 10);
  // evened out: the same count of chunks, all as long (stride rounded up to the millisecond)
  const step = newAudioInLast < minNewAudio ? Math.min(stride, Math.ceil(((durationSec - overlapSec) / count) * 1000) / 1000) : stride;
  const chunks: TranscriptionChunk[] = [];
  for (let index = 0; index < count; index++) {
    const startSec = roundTime(index * step);
    const endSec = index === count - 1 ? durationSec : Math.min(durationSec, roundTime(startSec + step + overlapSec));
    chunks.push({ index, startSec, endSec });
  }
  return chunks;
}

export interface TranscribedWord {
  text: string;
  start: number;
  end: number;
  confidence?: number;
}

export interface TranscriptionAnswer {
  words: TranscribedWord[];
  language: string | null;
  text: string;
}

/** An answer of the transcription service that cannot be read; the message can be shown to an operator. */
export class TranscriptionAnswerError extends Error {
  override readonly name = 'TranscriptionAnswerError';
}

/** Most words read from one answer. */
const MAX_ANSWER_WORDS = 200_000;

const tooManyWords = () => new TranscriptionAnswerError(`The transcription service answered with more than ${MAX_ANSWER_WORDS} words for one chunk; use shorter chunks.`);

const NO_WORD_TIMINGS = 'The transcription service answered without word timings (it needs response_format=verbose_json and timestamp_granularities[]=word).';

/** Whisper's language names (as OpenAI answers them) and their ISO 639-1 codes. */
const LANGUAGE_CODES: ReadonlyMap<string, string> = new Map(
  (
    'english en,chinese zh,mandarin zh,german de,spanish es,castilian es,russian ru,korean ko,french fr,japanese ja,' +
    'portuguese pt,turkish tr,polish pl,catalan ca,valencian ca,dutch nl,flemish nl,arabic ar,swedish sv,italian it,' +
    'indonesian id,hindi hi,finnish fi,vietnamese vi,hebrew he,ukrainian uk,greek el,malay ms,czech cs,romanian ro,' +
    'moldavian ro,moldovan ro,danish da,hungarian hu,tamil ta,norwegian no,thai th,urdu ur,croatian hr,bulgarian bg,' +
    'lithuanian lt,latin la,maori mi,malayalam ml,welsh cy,slovak sk,telugu te,persian fa,latvian lv,bengali bn,' +
    'serbian sr,azerbaijani az,slovenian sl,kannada kn,estonian et,macedonian mk,breton br,basque eu,icelandic is,' +
    'armenian hy,nepali ne,mongolian mn,bosnian bs,kazakh kk,albanian sq,swahili sw,galician gl,marathi mr,punjabi pa,' +
    'panjabi pa,sinhala si,sinhalese si,khmer km,shona sn,yoruba yo,somali so,afrikaans af,occitan oc,georgian ka,' +
    'belarusian be,tajik tg,sindhi sd,gujarati gu,amharic am,yiddish yi,lao lo,uzbek uz,faroese fo,haitian creole ht,' +
    'haitian ht,pashto ps,pushto ps,turkmen tk,nynorsk nn,maltese mt,sanskrit sa,luxembourgish lb,letzeburgesch lb,' +
    'myanmar my,burmese my,tibetan bo,tagalog tl,malagasy mg,assamese as,tatar tt,lingala ln,hausa ha,bashkir ba,' +
    'javanese jv,sundanese su'
  )
    .split(',')
    .map((pair) => {
      const at = pair.lastIndexOf(' ');
      return [pair.slice(0, at), pair.slice(at + 1)] as const;
    }),
);

/** ISO 639-1 code of the answer's language: a language name mapped, a code ("en", "pt-BR") kept; null when unknown. */
function languageCode(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const name = value.trim().toLowerCase();
  if (/^[a-z]{2}$/.test(name)) return name;
  if (/^[a-z]{2}[-_][a-z0-9]{1,8}([-_][a-z0-9]{1,8})*$/.test(name)) return name.slice(0, 2);
  return LANGUAGE_CODES.get(name.replace(/\s+/g, ' ')) ?? null;
}

type RawWord = { word?: unknown; text?: unknown; start?: unknown; end?: unknown; probability?: unknown; confidence?: unknown } | null | undefined;

const isTime = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** One answer word, or null when it has no text or no usable times (negative starts are held at 0). */
function readWord(raw: RawWord): TranscribedWord | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const text = (typeof raw.word === 'string' ? raw.word : typeof raw.text === 'string' ? raw.text : '').trim();
  if (text === '' || !isTime(raw.start) || !isTime(raw.end) || raw.end < raw.start || raw.end < 0) return null;
  const score = isTime(raw.probability) ? raw.probability : isTime(raw.confidence) ? raw.confidence : undefined;
  return { text, start: Math.max(0, raw.start), end: raw.end, ...(score !== undefined ? { confidence: Math.min(1, Math.max(0, score)) } : {}) };
}

/**
 * Reads an endpoint's JSON answer: top-level `words: [{word, start, end}]` (OpenAI, Groq) or
 * `segments[].words[]` with `probability` (faster-whisper, whisper.cpp servers). Words without
 * text or finite times, or ending before they start, are dropped; the rest sorted by start.
 */
export function parseTranscriptionAnswer(json: unknown): TranscriptionAnswer {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new TranscriptionAnswerError('The transcription service answered with something other than a JSON object.');
  const answer = json as { words?: unknown; segments?: unknown; language?: unknown; text?: unknown };
  const top = Array.isArray(answer.words) ? (answer.words as RawWord[]) : null;
  const segments = Array.isArray(answer.segments) ? (answer.segments as unknown[]).filter((s): s is { words?: unknown; text?: unknown } => typeof s === 'object' && s !== null) : null;
  if (top === null && segments === null) throw new TranscriptionAnswerError(NO_WORD_TIMINGS);

  let raws: readonly RawWord[];
  if (top !== null && (top.length > 0 || segments === null)) raws = top;
  else {
    const lists = segments!.map((s) => s.words).filter((list): list is RawWord[] => Array.isArray(list));
    // segments with speech but no word lists: verbose_json asked for without word timestamps
    if (top === null && lists.length === 0 && segments!.some((s) => typeof s.text === 'string' && s.text.trim() !== '')) throw new TranscriptionAnswerError(NO_WORD_TIMINGS);
    if (lists.reduce((n, list) => n + list.length, 0) > MAX_ANSWER_WORDS) throw tooManyWords();
    raws = lists.flat();
  }
  if (raws.length > MAX_ANSWER_WORDS) throw tooManyWords();

  const words: TranscribedWord[] = [];
  for (const raw of raws) {
    const word = readWord(raw);
    if (word) words.push(word);
  }
  words.sort((a, b) => a.start - b.start || a.end - b.end);
  const text = typeof answer.text === 'string' ? answer.text.trim() : words.map((w) => w.text).join(' ');
  return { words, language: languageCode(answer.language), text };
}

/** Words are compared this far around an overlap, and matched words at most this far apart in time. */
const MATCH_SLACK_SEC = 1;
/** A word ending this close to a chunk's end may have been cut off by it. */
const EDGE_SEC = 0.25;
/** Most words compared on each side of an overlap. */
const MAX_OVERLAP_WORDS = 300;

interface Part {
  chunk: TranscriptionChunk;
  words: readonly TranscribedWord[];
}

/** A chunk's words on the video's timeline, sorted by start; words without finite times left out. */
function onTimeline({ chunk, words }: Part): TranscribedWord[] {
  const out: TranscribedWord[] = [];
  for (const w of words) {
    if (!Number.isFinite(w.start) || !Number.isFinite(w.end)) continue;
    const start = roundTime(chunk.startSec + w.start);
    out.push({ ...w, start, end: Math.max(start, roundTime(chunk.startSec + w.end)) });
  }
  return out.sort((a, b) => a.start - b.start);
}

/** The longest run of equal words (each pair within 1 s) between tail and head; ties: the closest in time. */
function longestRun(tail: readonly TranscribedWord[], head: readonly TranscribedWord[]): { i: number; j: number; length: number } {
  const tailNorms = tail.map((w) => normalizeWord(w.text));
  const headNorms = head.map((w) => normalizeWord(w.text));
  let best = { i: 0, j: 0, length: 0, drift: Infinity };
  // run length and summed time difference of the run ending at (i, j), one row at a time
  let lengths = new Array<number>(head.length + 1).fill(0);
  let drifts = new Array<number>(head.length + 1).fill(0);
  for (let i = 1; i <= tail.length; i++) {
    const rowLengths = new Array<number>(head.length + 1).fill(0);
    const rowDrifts = new Array<number>(head.length + 1).fill(0);
    const a = tail[i - 1]!;
    for (let j = 1; j <= head.length; j++) {
      const difference = Math.abs(a.start - head[j - 1]!.start);
      if (tailNorms[i - 1] === '' || tailNorms[i - 1] !== headNorms[j - 1] || difference > MATCH_SLACK_SEC) continue;
      const length = lengths[j - 1]! + 1;
      const drift = drifts[j - 1]! + difference;
      rowLengths[j] = length;
      rowDrifts[j] = drift;
      if (length > best.length || (length === best.length && drift < best.drift)) best = { i: i - length, j: j - length, length, drift };
    }
    lengths = rowLengths;
    drifts = rowDrifts;
  }
  return best;
}

/**
 * The overlap's middle, or when a word (of either chunk) is said then, the middle of the nearest
 * pause; not a gap between the two chunks' times of one word (the same word either side of it).
 */
function cutTime(tail: readonly TranscribedWord[], head: readonly TranscribedWord[], from: number, to: number): number {
  const middle = (from + to) / 2;
  if (!(to > from)) return middle;
  const spans = [...tail.map((word) => ({ word, later: false })), ...head.map((word) => ({ word, later: true }))]
    .filter(({ word }) => word.end > from && word.start < to && word.end > word.start)
    .sort((a, b) => a.word.start - b.word.start);
  let best = middle;
  let bestDistance = Infinity;
  let free = from;
  let before: (typeof spans)[number] | null = null;
  for (let k = 0; k <= spans.length; k++) {
    const after = spans[k];
    const end = after ? Math.min(after.word.start, to) : to;
    const oneWord = before && after && before.later !== after.later && normalizeWord(before.word.text) === normalizeWord(after.word.text);
    if (end > free && !oneWord) {
      const point = middle >= free && middle <= end ? middle : (free + end) / 2;
      if (Math.abs(point - middle) < bestDistance) [best, bestDistance] = [point, Math.abs(point - middle)];
    }
    if (after && after.word.end > free) [free, before] = [after.word.end, after];
  }
  return best;
}

/** True when two words overlap in time by more than half the shorter one. */
function sameSound(a: TranscribedWord, b: TranscribedWord): boolean {
  const overlap = Math.min(a.end, b.end) - Math.max(a.start, b.start);
  return overlap > 0 && overlap > Math.min(a.end - a.start, b.end - b.start) / 2;
}

/** Appends a word, starting no earlier than the one before it (the chunks' timings of a word differ slightly). */
function pushInOrder(joined: TranscribedWord[], word: TranscribedWord): void {
  const previousStart = joined.length > 0 ? joined[joined.length - 1]!.start : -Infinity;
  joined.push(word.start >= previousStart ? word : { ...word, start: previousStart, end: Math.max(word.end, previousStart) });
}

/** Appends the later chunk's words to the joined ones (sorted by start), joined in their overlap. */
function joinPair(joined: TranscribedWord[], earlierChunk: TranscriptionChunk, later: readonly TranscribedWord[], laterChunk: TranscriptionChunk): void {
  if (later.length === 0) return;
  if (joined.length === 0) {
    for (const word of later) pushInOrder(joined, word);
    return;
  }
  const overlapStart = laterChunk.startSec;
  const overlapEnd = earlierChunk.endSec;
  const middle = (overlapStart + overlapEnd) / 2;

  // the tail: a suffix of the joined words; the head: a prefix of the later words (both capped)
  let tailFrom = joined.length;
  while (tailFrom > 0 && joined[tailFrom - 1]!.start >= overlapStart - MATCH_SLACK_SEC && joined.length - tailFrom < MAX_OVERLAP_WORDS) tailFrom--;
  let headTo = 0;
  while (headTo < later.length && later[headTo]!.end <= overlapEnd + MATCH_SLACK_SEC && headTo < MAX_OVERLAP_WORDS) headTo++;
  const tail = joined.slice(tailFrom);
  const head = later.slice(0, headTo);

  // the fewer words either chunk has starting in the overlap
  const inOverlap = (w: TranscribedWord) => w.start >= overlapStart && w.start <= overlapEnd;
  const heardInOverlap = Math.min(tail.filter(inOverlap).length, head.filter(inOverlap).length);
  const run = longestRun(tail, head);
  let keep: number;
  let from: number;
  if (run.length >= (heardInOverlap < 3 ? 1 : 2)) {
    // splice in the middle of the run: earlier words before the splice word, later ones from it
    const at = Math.floor(run.length / 2);
    keep = tailFrom + run.i + at;
    from = run.j + at;
  } else {
    // a cut in time: earlier words starting before it, later ones from it
    let cut: number;
    if (later[0]!.start >= overlapEnd) {
      // the later chunk heard nothing in the overlap: the earlier's words are kept, but for one cut off by its end
      cut = overlapEnd;
      for (let k = joined.length - 1; k >= tailFrom && joined[k]!.end >= overlapEnd - EDGE_SEC; k--) cut = Math.min(cut, joined[k]!.start);
      cut = Math.max(cut, middle);
    } else if (joined[joined.length - 1]!.end <= overlapStart) {
      // the earlier chunk heard nothing in the overlap: the later's words are kept
      cut = Math.min(middle, overlapStart);
    } else cut = cutTime(tail, head, overlapStart, overlapEnd);
    keep = joined.length;
    while (keep > 0 && joined[keep - 1]!.start >= cut) keep--;
    from = 0;
    while (from < later.length && later[from]!.start < cut) from++;
  }
  // a later word mostly overlapping the last earlier one in time is the same sound heard twice
  const last = keep > 0 ? joined[keep - 1]! : null;
  while (last && from < later.length && sameSound(last, later[from]!)) from++;
  joined.length = keep;
  for (let i = from; i < later.length; i++) pushInOrder(joined, later[i]!);
}

/**
 * Joins the answers of consecutive chunks (word times relative to each chunk's start) into one
 * list on the video's timeline. In each overlap the longest run of matching words (normalised,
 * each pair within 1 s) is spliced in its middle; without one (2 words, or 1 when the overlap
 * holds fewer than 3) the overlap is cut in time: at its middle, or in the nearest pause when a word
 * is said then; when one chunk heard nothing in the overlap, the other's words there are kept.
 * Words are never duplicated or reordered; a word starting before the previous one starts with it.
 */
export function joinTranscribedChunks(parts: readonly { chunk: TranscriptionChunk; words: readonly TranscribedWord[] }[]): TranscribedWord[] {
  for (let i = 1; i < parts.length; i++) {
    const previous = parts[i - 1]!.chunk;
    const chunk = parts[i]!.chunk;
    if (!(chunk.index > previous.index) || !(chunk.startSec >= previous.startSec)) {
      throw new RangeError(`The chunk answers must be joined in chunk order: chunk ${chunk.index} (at ${chunk.startSec} s) came after chunk ${previous.index} (at ${previous.startSec} s).`);
    }
  }
  const joined: TranscribedWord[] = [];
  parts.forEach((part, i) => joinPair(joined, parts[Math.max(0, i - 1)]!.chunk, onTimeline(part), part.chunk));
  return joined;
}
