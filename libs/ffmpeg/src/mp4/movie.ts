/**
 * The movie of an MP4/MOV file, found and checked before ffmpeg or the composer trust it:
 * - exactly one movie box, a `moov` (ffmpeg also reads a `free`/`hoov` box that starts with
 *   `mvhd` as the movie: such an alias, or a second movie, is refused: two readers would see two
 *   movies);
 * - no data reference pointing outside the file (ADR 0012), wherever the mov demuxer parses one:
 *   every `dref` in the movie's containers and in sample-entry extensions, each entry a `url `,
 *   `urn ` or `alis` with the self-contained flag; a compressed movie (`cmov`) cannot be checked;
 * - sample tables inside the reader's bounds (sample-table.ts).
 * Every walk is linear in the bytes read and bounded by budget.ts; it yields between slices.
 */
import { MP4_LIMITS, Mp4BoundsError, Mp4UnsupportedError, Work, runSliced, runToEnd, type Mp4Limits, type Steps } from './budget';
import { eachChildBox, fourcc, parseBoxHeader, u32, type ByteSource, type ChildBox } from './boxes';
import { parseMovie, type MovieTables } from './sample-table';

export type MovieIssue =
  | { kind: 'external-reference'; path: string; entry: string }
  | { kind: 'compressed-movie'; path: string }
  | { kind: 'malformed-reference'; path: string; detail: string };

export type MovieProblem = 'not-mp4' | 'no-movie' | 'too-large' | 'several-movies' | 'movie-alias' | 'outside-bounds' | MovieIssue['kind'];

export type MovieCheck =
  | { ok: true; movies: number; /** why the composer cannot use the tables (renders re-encode), or null */ unsupported: string | null }
  | { ok: false; problem: MovieProblem; reason: string };

/** Boxes the mov demuxer parses as plain lists of child boxes. */
const CONTAINERS = new Set(['moov', 'trak', 'mdia', 'minf', 'dinf', 'stbl', 'edts', 'udta', 'mvex', 'moof', 'traf', 'tref', 'sinf', 'schi', 'wave']);
/** ffmpeg reads a `free` or `hoov` box as the movie when its first child is `mvhd` or `cmov`. */
const MOVIE_ALIASES = new Set(['free', 'hoov']);
/** Boxes a file of the MP4/MOV family starts with (what ffmpeg's own mov probe looks for). */
const FIRST_BOXES = new Set(['ftyp', 'moov', 'mdat', 'free', 'skip', 'wide', 'pnot', 'udta', 'uuid', 'junk', 'pict', 'PICT', 'ediw', 'prfl', 'moof', 'styp', 'sidx', 'meta', 'jP  ']);
/** Data entries that can say "the data is in this file". */
const SELF_CONTAINED_TYPES = new Set(['url ', 'urn ', 'alis']);
const SELF_CONTAINED_FLAG = 0x000001;

function describeEntry(type: string, data: Uint8Array): string {
  const text = (b: Uint8Array) => {
    // Shown in logs and job errors: printable ASCII only, bounded (and only so much is read).
    const head = b.subarray(0, 400);
    const nul = head.indexOf(0);
    return Buffer.from(nul >= 0 ? head.subarray(0, nul) : head)
      .toString('latin1')
      .replace(/[^\x20-\x7e]/g, '?')
      .slice(0, 120);
  };
  if (type === 'url ') return `url "${text(data)}"`;
  if (type === 'urn ') return `urn "${text(data)}"`;
  if (type === 'alis') return 'alis (alias record)';
  return `${JSON.stringify(type)} entry`;
}

/**
 * Issues of one `dref` payload (after its box header): every entry must be a self-contained
 * `url `/`urn `/`alis`; a dref that is empty, short, or whose entries overrun it is malformed.
 * Entries are walked once, each skipped whole (what an entry holds is not read as boxes).
 */
export function drefIssues(payload: Uint8Array, path: string): MovieIssue[] {
  const malformed = (detail: string): MovieIssue => ({ kind: 'malformed-reference', path, detail });
  if (payload.length < 8) return [malformed('the data reference box is too short')];
  const count = u32(payload, 4);
  if (count === 0) return [malformed('the data reference box has no entries')];
  const issues: MovieIssue[] = [];
  let pos = 8;
  for (let i = 0; i < count; i++) {
    if (pos + 12 > payload.length) return [...issues, malformed(`data reference entry ${i + 1} of ${count} is missing`)];
    const size = u32(payload, pos);
    if (size < 12 || pos + size > payload.length) return [...issues, malformed(`data reference entry ${i + 1} has an invalid size (${size})`)];
    const type = fourcc(payload, pos + 4);
    const flags = u32(payload, pos + 8) & 0xffffff;
    if (!SELF_CONTAINED_TYPES.has(type) || (flags & SELF_CONTAINED_FLAG) === 0) {
      // one issue names the problem; the rest would only grow the list
      if (issues.length < 8) issues.push({ kind: 'external-reference', path, entry: describeEntry(type, payload.subarray(pos + 12, pos + size)) });
    }
    pos += size;
  }
  return issues;
}

const startsWithMovieHeader = (bytes: Uint8Array, payloadStart: number, end: number): boolean =>
  payloadStart + 8 <= end && ['mvhd', 'cmov'].includes(fourcc(bytes, payloadStart + 4));

interface Walk {
  work: Work;
  issues: MovieIssue[];
  /** movie boxes found anywhere, and the first one's type */
  movies: number;
  firstMovie: string | null;
}

const MAX_ISSUES = 64;
const DREF = Buffer.from('dref', 'latin1');
const CMOV = Buffer.from('cmov', 'latin1');

/** Where the children of a `meta` payload start, as ffmpeg finds them: just before its `hdlr`. */
function metaChildrenStart(bytes: Buffer, start: number, end: number): number | null {
  // the demuxer reads 4 bytes at a time from the payload's start
  const within = bytes.subarray(start + 4, end);
  for (let at = within.indexOf('hdlr', 0, 'latin1'); at >= 0; at = within.indexOf('hdlr', at + 1, 'latin1')) {
    if (at % 4 === 0) return start + 4 + at - 4;
  }
  return null;
}

/** Checks one box (and what it contains) whose bytes are bytes[box.start, box.end). */
function* inspectBox(bytes: Buffer, box: ChildBox, path: string, walk: Walk, depth: number): Steps<void> {
  if (depth > walk.work.limits.maxDepth) throw new Mp4BoundsError('too many or too deeply nested boxes to check');
  if (walk.work.tick()) yield;
  const { type, payloadStart, end } = box;
  const children = function* (from: number): Steps<void> {
    for (const c of eachChildBox(bytes, from, end, walk.work)) yield* inspectBox(bytes, c, `${path}/${c.type}`, walk, depth + 1);
  };
  // a few issues name the problem; a crafted file must not grow the list without end
  if (type === 'dref') {
    if (walk.issues.length < MAX_ISSUES) walk.issues.push(...drefIssues(bytes.subarray(payloadStart, end), path));
  } else if (type === 'cmov') {
    if (walk.issues.length < MAX_ISSUES) walk.issues.push({ kind: 'compressed-movie', path });
  } else if (type === 'stsd') {
    // Sample entries carry extension boxes the demuxer parses too: a `dref` or `cmov` that heads a
    // box inside the stsd is checked, and the scan goes on after it (what it holds was read).
    for (const tag of [DREF, CMOV]) {
      const within = bytes.subarray(0, end);
      for (let at = within.indexOf(tag, payloadStart + 4); at >= 0 && at + 4 <= end; ) {
        const size = u32(bytes, at - 4);
        if (size >= 8 && at - 4 + size <= end) {
          walk.work.countBox();
          yield* inspectBox(bytes, { type: tag.toString('latin1'), start: at - 4, payloadStart: at + 4, end: at - 4 + size }, `${path}/${tag.toString('latin1')}`, walk, depth + 1);
          at = within.indexOf(tag, at - 4 + size);
        } else at = within.indexOf(tag, at + 1);
        if (walk.work.tick()) yield;
      }
    }
  } else if (type === 'meta') {
    const from = metaChildrenStart(bytes, payloadStart, end);
    if (from !== null) yield* children(from);
  } else if (type === 'moov' || (MOVIE_ALIASES.has(type) && startsWithMovieHeader(bytes, payloadStart, end))) {
    walk.movies++;
    walk.firstMovie ??= type;
    yield* children(payloadStart);
  } else if (CONTAINERS.has(type)) yield* children(payloadStart);
}

/** Top-level boxes worth reading whole: those that can hold a data reference or a movie. */
const needsReading = (type: string): boolean => CONTAINERS.has(type) || MOVIE_ALIASES.has(type) || ['meta', 'dref', 'cmov', 'stsd'].includes(type);

export interface ReadMovieOptions {
  limits?: Readonly<Mp4Limits>;
  /** Epoch ms after which the reading stops (Mp4BoundsError). */
  deadline?: number;
  signal?: AbortSignal;
  /** Time slice between turns of the event loop (default 20 ms). */
  sliceMs?: number;
}

/** What a walk of the top-level boxes found. */
interface FileScan {
  isoFile: boolean;
  walk: Walk;
  /** the top-level moov's bytes, if there is one */
  moov: Buffer | null;
  /** a reason the walk stopped early ('too-large') */
  tooLarge: string | null;
}

/**
 * Walks the top-level boxes (reading only headers, and whole only the boxes that can hold a data
 * reference or a movie), stopping at the first movie fragment after the movie.
 */
async function scanFile(source: ByteSource, o: ReadMovieOptions): Promise<FileScan> {
  const limits = o.limits ?? MP4_LIMITS;
  const walk: Walk = { work: new Work(limits), issues: [], movies: 0, firstMovie: null };
  let isoFile = false;
  let moov: Buffer | null = null;
  for (let offset = 0, count = 0; offset + 8 <= source.size; count++) {
    if (count >= limits.maxTopLevelBoxes) return { isoFile, walk, moov, tooLarge: `more than ${limits.maxTopLevelBoxes} top-level boxes` };
    const head = await source.read(offset, Math.min(32, source.size - offset));
    const h = parseBoxHeader(head, source.size - offset);
    if (offset === 0) isoFile = h !== null && FIRST_BOXES.has(h.type);
    if (!isoFile || !h || (h.type === 'moof' && walk.movies > 0)) break;
    if (h.type === 'mdat' || !needsReading(h.type) || (MOVIE_ALIASES.has(h.type) && !startsWithMovieHeader(head, h.headerSize, head.length))) {
      offset += h.size;
      continue;
    }
    if (h.size > limits.maxMovieBytes) {
      return { isoFile, walk, moov, tooLarge: `the ${h.type} box (${h.size} bytes) is larger than ${limits.maxMovieBytes} bytes` };
    }
    const bytes = Buffer.from(await source.read(offset, h.size));
    await runSliced(inspectBox(bytes, { type: h.type, start: 0, payloadStart: h.headerSize, end: h.size }, h.type, walk, 0), walk.work, o);
    if (h.type === 'moov' && !moov) moov = bytes;
    offset += h.size;
  }
  return { isoFile, walk, moov, tooLarge: null };
}

const SEVERITY: Record<MovieIssue['kind'], number> = { 'external-reference': 0, 'compressed-movie': 1, 'malformed-reference': 2 };

export function describeIssue(i: MovieIssue): string {
  if (i.kind === 'external-reference') return `a data reference points outside the file (${i.path}: ${i.entry})`;
  if (i.kind === 'compressed-movie') return `a compressed movie header cannot be checked (${i.path})`;
  return `${i.detail} (${i.path})`;
}

type Refusal = Extract<MovieCheck, { ok: false }>;

/** The one movie of a scanned file, or why the file is refused. */
function theMovie(scan: FileScan): Buffer | Refusal {
  if (!scan.isoFile) return { ok: false, problem: 'not-mp4', reason: 'not an MP4/MOV file (no ISO base media box at its start)' };
  if (scan.tooLarge) return { ok: false, problem: 'too-large', reason: scan.tooLarge };
  const issue = [...scan.walk.issues].sort((a, b) => SEVERITY[a.kind] - SEVERITY[b.kind])[0];
  if (issue) return { ok: false, problem: issue.kind, reason: describeIssue(issue) };
  if (scan.walk.movies === 0) return { ok: false, problem: 'no-movie', reason: 'moov atom not found' };
  if (scan.walk.movies > 1) return { ok: false, problem: 'several-movies', reason: `the file holds ${scan.walk.movies} movie boxes (one is allowed)` };
  if (scan.walk.firstMovie !== 'moov' || !scan.moov) return { ok: false, problem: 'movie-alias', reason: `the movie is stored in a ${JSON.stringify(scan.walk.firstMovie)} box, not a moov box` };
  return scan.moov;
}

async function scanAndParse(source: ByteSource, o: ReadMovieOptions): Promise<{ refusal: Refusal } | { tables: MovieTables } | { unsupported: string }> {
  let scan: FileScan;
  try {
    scan = await scanFile(source, o);
  } catch (err) {
    if (err instanceof Mp4BoundsError) return { refusal: { ok: false, problem: err.message.startsWith('too many') ? 'malformed-reference' : 'outside-bounds', reason: err.message } };
    throw err;
  }
  const movie = theMovie(scan);
  if (!Buffer.isBuffer(movie)) return { refusal: movie };
  try {
    const work = new Work(o.limits ?? MP4_LIMITS);
    return { tables: await runSliced(parseMovie(movie, source.size, work), work, o) };
  } catch (err) {
    if (err instanceof Mp4BoundsError) return { refusal: { ok: false, problem: 'outside-bounds', reason: err.message } };
    if (err instanceof Mp4UnsupportedError) return { unsupported: err.message };
    throw err;
  }
}

/**
 * Checks a file as the upload does: MP4/MOV, one movie, no external data, sample tables inside
 * the bounds. ok false: refuse it. ok true with `unsupported`: fine for ffmpeg, renders re-encode.
 */
export async function checkMovieBoxes(source: ByteSource, o: ReadMovieOptions = {}): Promise<MovieCheck> {
  const r = await scanAndParse(source, o);
  if ('refusal' in r) return r.refusal;
  return { ok: true, movies: 1, unsupported: 'unsupported' in r ? r.unsupported : null };
}

/**
 * The sample tables of a file, through the same checks as the upload: Mp4BoundsError when the
 * file would be refused, Mp4UnsupportedError when the composer cannot use its tables.
 */
export async function readMovie(source: ByteSource, o: ReadMovieOptions = {}): Promise<MovieTables> {
  const r = await scanAndParse(source, o);
  if ('refusal' in r) throw new Mp4BoundsError(r.refusal.reason);
  if ('unsupported' in r) throw new Mp4UnsupportedError(r.unsupported);
  return r.tables;
}

/** The tables of a movie box already in memory (tests, our own writer's output). */
export function parseMovieTables(moov: Buffer, fileSize = Number.MAX_SAFE_INTEGER, limits: Readonly<Mp4Limits> = MP4_LIMITS): MovieTables {
  const work = new Work(limits);
  return runToEnd(parseMovie(moov, fileSize, work), work);
}
