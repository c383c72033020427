/**
 * The check of a Matroska/WebM file before ffprobe/ffmpeg parse it (docs/SECURITY.md, "Matroska
 * and WebM"): an EBML header naming `matroska` or `webm` at a version we read, one Segment, every
 * element's size inside its parent and the file, no linked segments (the references a Matroska
 * file can make to other files), no encrypted tracks. Metadata elements (Info, Tracks, Chapters,
 * Tags, SeekHead) are read whole and walked, in order up to the first cluster and then where the
 * SeekHead points (clusters are not read). The work is bounded by
 * MATROSKA_LIMITS whatever the file says: reads, elements, depth, bytes held, and a deadline.
 */
import type { ByteSource } from '../mp4/boxes';

export interface MatroskaLimits {
  /** Largest metadata element (Info, Tracks, SeekHead, Chapters, Tags) read whole. */
  maxMetadataBytes: number;
  /** Elements looked at in all, and how deep they nest. */
  maxElements: number;
  maxDepth: number;
  /** Level-1 elements of the Segment walked (clusters included). */
  maxTopLevel: number;
  maxTracks: number;
  /** Reads of the source (each one small, except metadata elements). */
  maxReads: number;
}

export const MATROSKA_LIMITS: Readonly<MatroskaLimits> = {
  maxMetadataBytes: 16 * 1024 * 1024,
  maxElements: 500_000,
  maxDepth: 16,
  maxTopLevel: 200_000,
  maxTracks: 32,
  maxReads: 20_000,
};

export type MatroskaProblem = 'not-matroska' | 'external-reference' | 'encrypted' | 'too-large' | 'outside-bounds';

export type MatroskaCheck = { ok: true; docType: 'matroska' | 'webm' } | { ok: false; problem: MatroskaProblem; reason: string };

/** The four bytes every EBML file starts with (the EBML header's ID). */
export const EBML_MAGIC = [0x1a, 0x45, 0xdf, 0xa3] as const;

export function startsLikeEbml(head: Uint8Array): boolean {
  return EBML_MAGIC.every((b, i) => head[i] === b);
}

const ID = {
  EBML: 0x1a45dfa3,
  EBMLVersion: 0x4286,
  EBMLReadVersion: 0x42f7,
  EBMLMaxIDLength: 0x42f2,
  EBMLMaxSizeLength: 0x42f3,
  DocType: 0x4282,
  DocTypeReadVersion: 0x4285,
  Segment: 0x18538067,
  SeekHead: 0x114d9b74,
  Seek: 0x4dbb,
  Info: 0x1549a966,
  Tracks: 0x1654ae6b,
  TrackEntry: 0xae,
  Cluster: 0x1f43b675,
  Cues: 0x1c53bb6b,
  Chapters: 0x1043a770,
  Tags: 0x1254c367,
  Attachments: 0x1941a469,
  Void: 0xec,
  CRC32: 0xbf,
} as const;

/** Elements that make a segment depend on another file (linked segments, chapters of other segments). */
const LINKS = new Map<number, string>([
  [0x3cb923, 'PrevUID'],
  [0x3c83ab, 'PrevFilename'],
  [0x3eb923, 'NextUID'],
  [0x3e83bb, 'NextFilename'],
  [0x6e67, 'ChapterSegmentUUID'],
  [0x6ebc, 'ChapterSegmentEditionUID'],
]);
/** ContentEncryption: the track's frames are encrypted. */
const ENCRYPTION = 0x5035;

/** Master elements (they hold elements) inside the metadata we walk. */
const MASTERS = new Set<number>([
  ID.SeekHead, ID.Seek, ID.Info, ID.Tracks, ID.TrackEntry, ID.Chapters, ID.Tags,
  0x4dbb, // Seek
  0x6924, // ChapterTranslate
  0xe0, // Video
  0xe1, // Audio
  0xe2, // TrackOperation
  0xe3, // TrackCombinePlanes
  0xe4, // TrackPlane
  0xe9, // TrackJoinBlocks
  0x55b0, // Colour
  0x55d0, // MasteringMetadata
  0x7670, // Projection
  0x6d80, // ContentEncodings
  0x6240, // ContentEncoding
  0x5034, // ContentCompression
  0x5035, // ContentEncryption
  0x47e7, // ContentEncAESSettings
  0x45b9, // EditionEntry
  0xb6, // ChapterAtom
  0x8f, // ChapterTrack
  0x80, // ChapterDisplay
  0x6944, // ChapProcess
  0x6911, // ChapProcessCommand
  0x7373, // Tag
  0x63c0, // Targets
  0x67c8, // SimpleTag
  0x41e4, // BlockAdditionMapping
]);

class Refusal extends Error {
  constructor(
    readonly problem: MatroskaProblem,
    message: string,
  ) {
    super(message);
  }
}

const hex = (id: number) => `0x${id.toString(16).toUpperCase()}`;

/** An element's header: its ID, where its data starts and how long it is (null: unknown size). */
interface Header {
  id: number;
  dataStart: number;
  size: number | null;
}

/** Reads an EBML variable-length integer at `at`: its length and value (marker bit kept for IDs). */
function vint(bytes: Uint8Array, at: number, maxLength: number, keepMarker: boolean): { length: number; value: number; allOnes: boolean } | null {
  const first = bytes[at];
  if (first === undefined || first === 0) return null;
  const length = Math.clz32(first) - 23;
  if (length > maxLength || at + length > bytes.length) return null;
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let k = 1; k < length; k++) {
    const b = bytes[at + k]!;
    value = value * 256 + b;
    if (b !== 0xff) allOnes = false;
  }
  return { length, value, allOnes };
}

/** Parses an element header from `bytes` at `at` (`base` is `bytes[0]`'s offset in the file). */
function headerAt(bytes: Uint8Array, at: number, base: number): Header | null {
  const id = vint(bytes, at, 4, true);
  if (!id) return null;
  const size = vint(bytes, at + id.length, 8, false);
  if (!size) return null;
  if (!size.allOnes && size.value > Number.MAX_SAFE_INTEGER) return null;
  return { id: id.value, dataStart: base + at + id.length + size.length, size: size.allOnes ? null : size.value };
}

const unsigned = (b: Uint8Array) => b.reduce((v, x) => v * 256 + x, 0);

class Walk {
  private reads = 0;
  private elements = 0;

  constructor(
    readonly source: ByteSource,
    readonly limits: Readonly<MatroskaLimits>,
    readonly deadline: number,
    readonly signal?: AbortSignal,
  ) {}

  async read(offset: number, length: number): Promise<Uint8Array> {
    if (this.signal?.aborted) throw this.signal.reason as Error;
    if (Date.now() > this.deadline) throw new Refusal('too-large', 'the file takes too long to check');
    if (++this.reads > this.limits.maxReads) throw new Refusal('too-large', `more than ${this.limits.maxReads} reads to check the file`);
    return this.source.read(offset, Math.min(length, this.source.size - offset));
  }

  count(): void {
    if (++this.elements > this.limits.maxElements) throw new Refusal('too-large', `more than ${this.limits.maxElements} elements`);
  }

  /** The header of the element at `offset`, which must end by `end`. */
  async header(offset: number, end: number): Promise<Header> {
    const bytes = await this.read(offset, Math.min(12, end - offset));
    const h = headerAt(bytes, 0, offset);
    if (!h || h.dataStart > end) throw new Refusal('outside-bounds', `an element header at byte ${offset} is malformed`);
    this.count();
    return h;
  }
}

/** What a walk of metadata gathers: tracks seen, and the SeekHead's entries (ID, position in the Segment). */
interface Gathered {
  tracks: number;
  seeks: Array<{ id: number; position: number }>;
}

const SEEK_ID = 0x53ab;
const SEEK_POSITION = 0x53ac;
/** SeekHead entries followed at most. */
const MAX_SEEKS = 64;

/** Walks the elements of a metadata element held in memory; refuses links, encryption and sizes outside their parent. */
function walkMetadata(walk: Walk, bytes: Uint8Array, start: number, end: number, base: number, depth: number, got: Gathered): void {
  if (depth > walk.limits.maxDepth) throw new Refusal('too-large', `elements nest deeper than ${walk.limits.maxDepth}`);
  let at = start;
  while (at < end) {
    const h = headerAt(bytes.subarray(0, end), at, 0);
    if (!h) throw new Refusal('outside-bounds', `an element header at byte ${base + at} is malformed`);
    walk.count();
    if (h.size === null) throw new Refusal('outside-bounds', `the element ${hex(h.id)} at byte ${base + at} has an unknown size inside metadata`);
    const dataEnd = h.dataStart + h.size;
    if (dataEnd > end) throw new Refusal('outside-bounds', `the element ${hex(h.id)} at byte ${base + at} claims ${h.size} bytes, more than its parent holds`);
    const link = LINKS.get(h.id);
    if (link) throw new Refusal('external-reference', `the file links to another file (${link}): linked segments are not supported`);
    if (h.id === ENCRYPTION) throw new Refusal('encrypted', 'a track is encrypted');
    if (h.id === ID.TrackEntry && ++got.tracks > walk.limits.maxTracks) throw new Refusal('too-large', `more than ${walk.limits.maxTracks} tracks`);
    if (h.id === ID.Seek) {
      const seek = seekEntry(bytes.subarray(h.dataStart, dataEnd));
      if (seek && got.seeks.length < MAX_SEEKS) got.seeks.push(seek);
    }
    if (MASTERS.has(h.id)) walkMetadata(walk, bytes, h.dataStart, dataEnd, base, depth + 1, got);
    at = dataEnd;
  }
}

/** A Seek's target: the element ID it names and its position from the Segment's data start. */
function seekEntry(bytes: Uint8Array): { id: number; position: number } | null {
  let id: number | null = null;
  let position: number | null = null;
  for (let at = 0; at < bytes.length; ) {
    const h = headerAt(bytes, at, 0);
    if (!h || h.size === null || h.dataStart + h.size > bytes.length) return null;
    const data = bytes.subarray(h.dataStart, h.dataStart + h.size);
    if (h.id === SEEK_ID && data.length <= 4) id = unsigned(data);
    if (h.id === SEEK_POSITION && data.length <= 7) position = unsigned(data);
    at = h.dataStart + h.size;
  }
  return id !== null && position !== null ? { id, position } : null;
}

/** Metadata read whole and walked; the rest (clusters, cues, attachments) skipped by size. */
const METADATA = new Set<number>([ID.SeekHead, ID.Info, ID.Tracks, ID.Chapters, ID.Tags]);

async function checkHeader(walk: Walk): Promise<'matroska' | 'webm'> {
  const head = await walk.read(0, Math.min(64, walk.source.size));
  if (!startsLikeEbml(head)) throw new Refusal('not-matroska', 'the file is not Matroska or WebM (no EBML header)');
  const h = headerAt(head, 0, 0);
  if (!h || h.size === null || h.size > 4096) throw new Refusal('outside-bounds', 'the EBML header is malformed');
  const bytes = await walk.read(0, h.dataStart + h.size);
  if (bytes.length < h.dataStart + h.size) throw new Refusal('outside-bounds', 'the file ends inside its EBML header');
  let docType = '';
  let at = h.dataStart;
  while (at < h.dataStart + h.size) {
    const e = headerAt(bytes, at, 0);
    if (!e || e.size === null || e.dataStart + e.size > h.dataStart + h.size) throw new Refusal('outside-bounds', 'the EBML header is malformed');
    walk.count();
    const data = bytes.subarray(e.dataStart, e.dataStart + e.size);
    if (e.id === ID.DocType) docType = new TextDecoder().decode(data).replace(/\0+$/, '');
    if (e.id === ID.EBMLReadVersion && unsigned(data) > 1) throw new Refusal('not-matroska', `EBML read version ${unsigned(data)} is not supported`);
    if (e.id === ID.EBMLMaxIDLength && unsigned(data) > 4) throw new Refusal('outside-bounds', 'element IDs longer than 4 bytes');
    if (e.id === ID.EBMLMaxSizeLength && unsigned(data) > 8) throw new Refusal('outside-bounds', 'element sizes longer than 8 bytes');
    if (e.id === ID.DocTypeReadVersion && unsigned(data) > 4) throw new Refusal('not-matroska', `Matroska read version ${unsigned(data)} is not supported`);
    at = e.dataStart + e.size;
  }
  if (docType !== 'matroska' && docType !== 'webm') throw new Refusal('not-matroska', `the EBML document type is ${JSON.stringify(docType.slice(0, 32))}, not Matroska or WebM`);
  return docType;
}

/**
 * Checks a Matroska/WebM file. ok false: refuse it. A Segment or Cluster of unknown size (a live
 * recording) ends the walk there: ffmpeg reads on with its own bounds.
 */
export async function checkMatroska(source: ByteSource, o: { limits?: Readonly<MatroskaLimits>; deadline?: number; signal?: AbortSignal } = {}): Promise<MatroskaCheck> {
  const walk = new Walk(source, o.limits ?? MATROSKA_LIMITS, o.deadline ?? Date.now() + 60_000, o.signal);
  try {
    const docType = await checkHeader(walk);
    const ebml = await walk.header(0, source.size);
    let at = ebml.dataStart + ebml.size!;
    // Void elements may come before the Segment
    let segment = await walk.header(at, source.size);
    while (segment.id === ID.Void && segment.size !== null) {
      at = segment.dataStart + segment.size;
      segment = await walk.header(at, source.size);
    }
    if (segment.id !== ID.Segment) throw new Refusal('not-matroska', `a Segment must follow the EBML header (found ${hex(segment.id)})`);
    if (segment.size !== null && segment.dataStart + segment.size > source.size) {
      throw new Refusal('outside-bounds', `the Segment claims ${segment.size} bytes, more than the file holds`);
    }
    const end = segment.size === null ? source.size : segment.dataStart + segment.size;
    const got: Gathered = { tracks: 0, seeks: [] };
    const visited = new Set<number>();
    let sawTracks = false;
    /** Checks the level-1 element at `at`: its size inside the Segment; metadata read and walked. Returns its header. */
    const visit = async (at: number): Promise<Header> => {
      const h = await walk.header(at, end);
      if (h.size === null) {
        if (h.id === ID.Cluster) return h;
        throw new Refusal('outside-bounds', `the element ${hex(h.id)} at byte ${at} has an unknown size`);
      }
      if (h.dataStart + h.size > end) throw new Refusal('outside-bounds', `the element ${hex(h.id)} at byte ${at} claims ${h.size} bytes, more than the file holds`);
      if (METADATA.has(h.id) && !visited.has(at)) {
        visited.add(at);
        if (h.size > walk.limits.maxMetadataBytes) throw new Refusal('too-large', `the element ${hex(h.id)} is larger than ${walk.limits.maxMetadataBytes} bytes`);
        const bytes = await walk.read(h.dataStart, h.size);
        walkMetadata(walk, bytes, 0, bytes.length, h.dataStart, 1, got);
        if (h.id === ID.Tracks) sawTracks = true;
      }
      return h;
    };
    // in order up to the first cluster; after it only what the SeekHead points at (Cues, Tags, Chapters at the end)
    let top = 0;
    for (at = segment.dataStart; at < end && end - at >= 2; ) {
      if (++top > walk.limits.maxTopLevel) throw new Refusal('too-large', `more than ${walk.limits.maxTopLevel} elements in the Segment`);
      const h = await visit(at);
      if (h.id === ID.Cluster || h.size === null) break;
      at = h.dataStart + h.size;
    }
    // a stale or dangling entry (a recording cut short) is skipped, as ffmpeg skips it
    for (let k = 0; k < got.seeks.length; k++) {
      const seek = got.seeks[k]!;
      const target = segment.dataStart + seek.position;
      if (target + 2 > end || !METADATA.has(seek.id) || visited.has(target)) continue;
      const peek = headerAt(await walk.read(target, Math.min(12, end - target)), 0, target);
      if (peek?.id === seek.id) await visit(target);
    }
    if (!sawTracks) throw new Refusal('not-matroska', 'the file has no Tracks element before its first cluster');
    return { ok: true, docType };
  } catch (err) {
    if (err instanceof Refusal) return { ok: false, problem: err.problem, reason: err.message };
    throw err;
  }
}
