/**
 * Box (atom) headers and lists of child boxes, read the way ffmpeg's mov demuxer reads them, and
 * the byte sources a file is read through. Pure.
 */
import type { Work } from './budget';

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

export const u32 = (b: Uint8Array, at: number): number => ((b[at]! << 24) >>> 0) + (b[at + 1]! << 16) + (b[at + 2]! << 8) + b[at + 3]!;
export const fourcc = (b: Uint8Array, at: number): string => String.fromCharCode(b[at]!, b[at + 1]!, b[at + 2]!, b[at + 3]!);

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

/** The child boxes of bytes[start, end), in order, until ffmpeg would stop; each counted by `work`. */
export function* eachChildBox(bytes: Uint8Array, start: number, end: number, work?: Work): Generator<ChildBox> {
  for (let pos = start; pos + 8 <= end; ) {
    const h = parseBoxHeader(bytes.subarray(pos, Math.min(pos + 16, end)), end - pos);
    if (!h) return;
    work?.countBox();
    yield { type: h.type, start: pos, payloadStart: pos + h.headerSize, end: pos + h.size };
    pos += h.size;
  }
}

export const childBoxes = (bytes: Uint8Array, start: number, end: number, work?: Work): ChildBox[] => [...eachChildBox(bytes, start, end, work)];

/** A ByteSource over bytes in memory (tests, small files). */
export function bytesSource(bytes: Uint8Array): ByteSource {
  return {
    size: bytes.length,
    read: (offset, length) => Promise.resolve(bytes.subarray(offset, offset + length)),
  };
}
