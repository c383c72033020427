/**
 * A small walker over the boxes (atoms) of an MP4/MOV file that refuses a movie whose data
 * references point outside the file (ADR 0012). ffmpeg's mov demuxer, with `-enable_drefs 0`,
 * never opens them, but it accepts such a file silently; other readers of the original (browsers,
 * the provider) may not be as careful, so the upload probe refuses it.
 *
 * It follows the boxes the mov demuxer parses: every `dref` in the movie's containers is read and
 * each entry must be a `url `, `urn ` or `alis` with the self-contained flag (0x000001). A
 * compressed movie header (`cmov`) cannot be checked and is refused. Pure except for the
 * ByteSource it reads through (a local file or ranged HTTP reads, movie-check.ts).
 */

/** Random access to the bytes of one file. */
export interface ByteSource {
  readonly size: number;
  /** Exactly `length` bytes from `offset` (the caller keeps within `size`). */
  read(offset: number, length: number): Promise<Uint8Array>;
}

export interface BoxHeader {
  type: string;
  headerSize: number;
  /** Whole box, header included, clamped to what is left of its parent (as ffmpeg does). */
  size: number;
}

export interface ChildBox {
  type: string;
  start: number;
  payloadStart: number;
  end: number;
}

export type MovieIssue =
  | { kind: 'external-reference'; path: string; entry: string }
  | { kind: 'compressed-movie'; path: string }
  | { kind: 'malformed-reference'; path: string; detail: string };

export type MovieCheck =
  | { ok: true; movies: number }
  | { ok: false; problem: 'not-mp4' | 'no-movie' | 'too-large' | MovieIssue['kind']; reason: string };

/** Boxes the mov demuxer parses as plain lists of child boxes. */
const CONTAINERS = new Set(['moov', 'trak', 'mdia', 'minf', 'dinf', 'stbl', 'edts', 'udta', 'mvex', 'moof', 'traf', 'tref', 'sinf', 'schi', 'wave']);
/** ffmpeg reads a `free` or `hoov` box as the movie when its first child is `mvhd` or `cmov`. */
const MOVIE_ALIASES = new Set(['free', 'hoov']);
/** Boxes a file of the MP4/MOV family starts with (what ffmpeg's own mov probe looks for). */
const FIRST_BOXES = new Set(['ftyp', 'moov', 'mdat', 'free', 'skip', 'wide', 'pnot', 'udta', 'uuid', 'junk', 'pict', 'PICT', 'ediw', 'prfl', 'moof', 'styp', 'sidx', 'meta', 'jP  ']);
/** Data entries that can say "the data is in this file". */
const SELF_CONTAINED_TYPES = new Set(['url ', 'urn ', 'alis']);
const SELF_CONTAINED_FLAG = 0x000001;
const MAX_DEPTH = 32;
/** Bounds on the walk's work, whatever the file: boxes looked at in all, and top-level boxes. */
const MAX_BOXES = 1_000_000;
const MAX_TOP_LEVEL_BOXES = 100_000;

const u32 = (b: Uint8Array, at: number): number => ((b[at]! << 24) >>> 0) + (b[at + 1]! << 16) + (b[at + 2]! << 8) + b[at + 3]!;
const fourcc = (b: Uint8Array, at: number): string => String.fromCharCode(b[at]!, b[at + 1]!, b[at + 2]!, b[at + 3]!);

/**
 * The header at the start of `head` with `remaining` bytes left in the parent, or null where
 * ffmpeg stops reading a list of boxes (no room for a header, a size below the header's).
 * Size 0 runs to the end of the parent; size 1 is a 64-bit size.
 */
export function parseBoxHeader(head: Uint8Array, remaining: number): BoxHeader | null {
  if (remaining < 8 || head.length < 8) return null;
  let size = u32(head, 0);
  let headerSize = 8;
  if (size === 1) {
    if (remaining < 16 || head.length < 16) return null;
    size = u32(head, 8) * 2 ** 32 + u32(head, 12);
    headerSize = 16;
  } else if (size === 0) size = remaining;
  if (size < headerSize) return null;
  return { type: fourcc(head, 4), headerSize, size: Math.min(size, remaining) };
}

/** The child boxes of bytes[start, end), in order, until ffmpeg would stop. */
export function* eachChildBox(bytes: Uint8Array, start: number, end: number): Generator<ChildBox> {
  for (let pos = start; pos + 8 <= end; ) {
    const h = parseBoxHeader(bytes.subarray(pos, Math.min(pos + 16, end)), end - pos);
    if (!h) return;
    yield { type: h.type, start: pos, payloadStart: pos + h.headerSize, end: pos + h.size };
    pos += h.size;
  }
}

export const childBoxes = (bytes: Uint8Array, start: number, end: number): ChildBox[] => [...eachChildBox(bytes, start, end)];

function describeEntry(type: string, data: Uint8Array): string {
  const text = (b: Uint8Array) => {
    const nul = b.indexOf(0);
    // Shown in logs and job errors: printable ASCII only, bounded.
    return Buffer.from(nul >= 0 ? b.subarray(0, nul) : b)
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
      issues.push({ kind: 'external-reference', path, entry: describeEntry(type, payload.subarray(pos + 12, pos + size)) });
    }
    pos += size;
  }
  return issues;
}

/** Where the children of a `meta` payload start, as ffmpeg finds them: just before its `hdlr`. */
function metaChildrenStart(bytes: Uint8Array, start: number, end: number): number | null {
  for (let at = start + 4; at + 4 <= end; at += 4) {
    if (fourcc(bytes, at) === 'hdlr') return at - 4;
  }
  return null;
}

const startsWithMovieHeader = (bytes: Uint8Array, payloadStart: number, end: number): boolean =>
  payloadStart + 8 <= end && ['mvhd', 'cmov'].includes(fourcc(bytes, payloadStart + 4));

interface Walk {
  issues: MovieIssue[];
  movies: number;
  boxes: number;
  exhausted: boolean;
}

/** Checks one box (and what it contains) whose bytes are bytes[box.start, box.end). */
export function inspectBox(bytes: Uint8Array, box: ChildBox, path: string, walk: Walk, depth = 0): void {
  if (depth > MAX_DEPTH || ++walk.boxes > MAX_BOXES) {
    if (!walk.exhausted) walk.issues.push({ kind: 'malformed-reference', path, detail: 'too many or too deeply nested boxes to check' });
    walk.exhausted = true;
    return;
  }
  const { type, payloadStart, end } = box;
  const children = (from: number) => {
    for (const c of eachChildBox(bytes, from, end)) inspectBox(bytes, c, `${path}/${c.type}`, walk, depth + 1);
  };
  if (type === 'dref') walk.issues.push(...drefIssues(bytes.subarray(payloadStart, end), path));
  else if (type === 'cmov') walk.issues.push({ kind: 'compressed-movie', path });
  else if (type === 'stsd') {
    // Sample entries carry extension boxes that the demuxer parses too: look for a dref or cmov
    // box there (a 4cc that does not head a box inside the stsd is just data).
    for (let at = payloadStart + 4; at + 4 <= end; at++) {
      const tag = fourcc(bytes, at);
      const size = u32(bytes, at - 4);
      if ((tag === 'dref' || tag === 'cmov') && size >= 8 && at - 4 + size <= end) {
        inspectBox(bytes, { type: tag, start: at - 4, payloadStart: at + 4, end: at - 4 + size }, `${path}/${tag}`, walk, depth + 1);
      }
    }
  } else if (type === 'meta') {
    const from = metaChildrenStart(bytes, payloadStart, end);
    if (from !== null) children(from);
  } else if (type === 'moov' || (MOVIE_ALIASES.has(type) && startsWithMovieHeader(bytes, payloadStart, end))) {
    walk.movies++;
    children(payloadStart);
  } else if (CONTAINERS.has(type)) children(payloadStart);
}

/** Top-level boxes worth reading whole: those that can hold a data reference or a movie. */
const needsReading = (type: string): boolean => CONTAINERS.has(type) || MOVIE_ALIASES.has(type) || ['meta', 'dref', 'cmov', 'stsd'].includes(type);

export interface CheckMovieOptions {
  /** Largest box read whole (the movie header); larger is refused. Default 128 MiB. */
  maxBoxBytes?: number;
}

export const DEFAULT_MAX_BOX_BYTES = 128 * 1024 * 1024;

/**
 * Walks the top-level boxes of a file (reading only headers, and whole only the boxes that can
 * hold a data reference), stopping at the first movie fragment after the movie: fragments hold no
 * data references. Not MP4/MOV at all, no movie, a header too large, or any issue => ok false.
 */
export async function checkMovieBoxes(source: ByteSource, o: CheckMovieOptions = {}): Promise<MovieCheck> {
  const maxBoxBytes = o.maxBoxBytes ?? DEFAULT_MAX_BOX_BYTES;
  const walk: Walk = { issues: [], movies: 0, boxes: 0, exhausted: false };
  let isoFile = false;
  for (let offset = 0, count = 0; offset + 8 <= source.size; count++) {
    if (count >= MAX_TOP_LEVEL_BOXES) return { ok: false, problem: 'too-large', reason: `more than ${MAX_TOP_LEVEL_BOXES} top-level boxes` };
    const head = await source.read(offset, Math.min(32, source.size - offset));
    const h = parseBoxHeader(head, source.size - offset);
    if (offset === 0) isoFile = h !== null && FIRST_BOXES.has(h.type);
    if (!isoFile || !h || (h.type === 'moof' && walk.movies > 0)) break;
    if (h.type === 'mdat' || !needsReading(h.type)) {
      offset += h.size;
      continue;
    }
    if (MOVIE_ALIASES.has(h.type) && !startsWithMovieHeader(head, h.headerSize, head.length)) {
      offset += h.size;
      continue;
    }
    if (h.size > maxBoxBytes) {
      return { ok: false, problem: 'too-large', reason: `the ${h.type} box (${h.size} bytes) is larger than ${maxBoxBytes} bytes` };
    }
    const bytes = await source.read(offset, h.size);
    inspectBox(bytes, { type: h.type, start: 0, payloadStart: h.headerSize, end: h.size }, h.type, walk);
    offset += h.size;
  }
  if (!isoFile) {
    return { ok: false, problem: 'not-mp4', reason: 'not an MP4/MOV file (no ISO base media box at its start)' };
  }
  const issue = worstIssue(walk.issues);
  if (issue) return { ok: false, problem: issue.kind, reason: describeIssue(issue) };
  if (walk.movies === 0) return { ok: false, problem: 'no-movie', reason: 'moov atom not found' };
  return { ok: true, movies: walk.movies };
}

const SEVERITY: Record<MovieIssue['kind'], number> = { 'external-reference': 0, 'compressed-movie': 1, 'malformed-reference': 2 };

function worstIssue(issues: readonly MovieIssue[]): MovieIssue | undefined {
  return [...issues].sort((a, b) => SEVERITY[a.kind] - SEVERITY[b.kind])[0];
}

export function describeIssue(i: MovieIssue): string {
  if (i.kind === 'external-reference') return `a data reference points outside the file (${i.path}: ${i.entry})`;
  if (i.kind === 'compressed-movie') return `a compressed movie header cannot be checked (${i.path})`;
  return `${i.detail} (${i.path})`;
}

/** A ByteSource over bytes in memory (tests, small files). */
export function bytesSource(bytes: Uint8Array): ByteSource {
  return {
    size: bytes.length,
    read: (offset, length) => Promise.resolve(bytes.subarray(offset, offset + length)),
  };
}
