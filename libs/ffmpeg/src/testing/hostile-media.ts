/**
 * Test support (not built into the library): hostile inputs for the refusal tests of ADR 0012, and
 * the canaries that prove nothing was fetched or opened. Used by libs/ffmpeg and services/media
 * integration tests.
 */
import { execFileSync } from 'node:child_process';
import { constants } from 'node:fs';
import { open, rm, type FileHandle } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { childBoxes, type ChildBox } from '../mp4';
import { runFfmpeg } from '../run-ffmpeg';

/** An HTTP server on loopback that records every request it gets (and answers 404). */
export interface Canary {
  /** `http://127.0.0.1:<port>` */
  base: string;
  requests: string[];
  close(): Promise<void>;
}

export async function startCanary(): Promise<Canary> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

/**
 * A named pipe standing in for a local file: whoever opens it for reading is seen (a pending
 * writer's open completes), and gets an empty file. `opened()` says whether anyone did.
 */
export interface FileCanary {
  path: string;
  opened(): boolean;
  close(): Promise<void>;
}

export async function watchFile(path: string): Promise<FileCanary> {
  await rm(path, { force: true });
  execFileSync('mkfifo', [path]);
  let closing = false;
  let opened = false;
  // Blocks (in libuv's pool) until a reader opens the pipe.
  const writer: Promise<FileHandle> = open(path, constants.O_WRONLY).then(async (h) => {
    if (!closing) opened = true;
    await h.close(); // the reader sees end of file
    return h;
  });
  return {
    path,
    opened: () => opened,
    close: async () => {
      closing = true;
      // A reader of our own that never blocks lets a still pending writer finish.
      const reader = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
      await writer;
      await reader.close();
      await rm(path, { force: true });
    },
  };
}

/** An HLS media playlist whose segments are the given URLs. */
export function hlsPlaylist(segments: readonly string[]): string {
  return ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-TARGETDURATION:2', '#EXT-X-MEDIA-SEQUENCE:0', ...segments.flatMap((s) => ['#EXTINF:2.0,', s]), '#EXT-X-ENDLIST', ''].join('\n');
}

/** An ffconcat list of the given entries. */
export function ffconcatList(entries: readonly string[]): string {
  return ['ffconcat version 1.0', ...entries.map((e) => `file '${e}'`), ''].join('\n');
}

/** A 2-second 160x120 H.264/AAC MP4 as ffmpeg's mp4 muxer writes it (ftyp, free, mdat, moov last). */
export async function makeSmallMp4(path: string): Promise<void> {
  await runFfmpeg({
    timeoutMs: 60_000,
    args: [
      '-f', 'lavfi', '-i', 'testsrc2=size=160x120:rate=25:duration=2',
      '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100:duration=2',
      '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '64k', '-shortest', '-f', 'mp4', `file:${path}`,
    ],
  });
}

/**
 * The same MP4 with the first track's data reference rewritten to point outside the file: its
 * `url ` entry loses the self-contained flag and names `location`. The parents' sizes are fixed;
 * the movie must be the last box (chunk offsets into mdat stay valid). ffmpeg still plays it from
 * the file itself (it ignores such `url ` entries), so ffprobe alone accepts it.
 */
export function withExternalDataReference(mp4: Uint8Array, location: string): Buffer {
  const bytes = Buffer.from(mp4);
  const chain: ChildBox[] = [];
  let [start, end] = [0, bytes.length];
  for (const type of ['moov', 'trak', 'mdia', 'minf', 'dinf', 'dref']) {
    const b = childBoxes(bytes, start, end).find((c) => c.type === type);
    if (!b || b.payloadStart - b.start !== 8) throw new Error(`no plain ${type} box to rewrite`);
    chain.push(b);
    [start, end] = [b.payloadStart, b.end];
  }
  if (chain[0]!.end !== bytes.length) throw new Error('the movie must be the last box');
  const u32 = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(n);
    return b;
  };
  const data = Buffer.from(`${location}\0`, 'latin1');
  const entry = Buffer.concat([u32(12 + data.length), Buffer.from('url '), u32(0), data]);
  const dref = Buffer.concat([u32(16 + entry.length), Buffer.from('dref'), u32(0), u32(1), entry]);
  const old = chain[5]!;
  const delta = dref.length - (old.end - old.start);
  const out = Buffer.concat([bytes.subarray(0, old.start), dref, bytes.subarray(old.end)]);
  for (const b of chain.slice(0, 5)) out.writeUInt32BE(b.end - b.start + delta, b.start);
  return out;
}

/*
 * Crafted files of the MP4 reader's security review (docs/SECURITY.md, "The MP4 reader"), made
 * from a real MP4 whose movie is its last box (makeSmallMp4): each grows or rewrites boxes inside
 * the movie and fixes the sizes of the boxes around them, so chunk offsets into mdat stay valid.
 */

const be32 = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
};

/** The chain of boxes from the movie down `path` (first of each type; stsd's entries after its 8 bytes of fields). */
function chainOf(bytes: Buffer, path: readonly string[]): ChildBox[] {
  const chain: ChildBox[] = [];
  let [start, end] = [0, bytes.length];
  for (const type of path) {
    const parent = chain[chain.length - 1];
    const from = parent?.type === 'stsd' ? start + 8 : start;
    const b = childBoxes(bytes, from, end).find((c) => c.type === type);
    if (!b || b.payloadStart - b.start !== 8) throw new Error(`no plain ${type} box in ${path.join('/')}`);
    chain.push(b);
    [start, end] = [b.payloadStart, b.end];
  }
  if (chain[0]!.end !== bytes.length) throw new Error('the movie must be the last box');
  return chain;
}

/** `bytes` with [from, to) replaced by `insert`, every box of `chain` that holds it resized. */
function splice(bytes: Buffer, chain: readonly ChildBox[], from: number, to: number, insert: Buffer): Buffer {
  const out = Buffer.concat([bytes.subarray(0, from), insert, bytes.subarray(to)]);
  const delta = insert.length - (to - from);
  for (const b of chain) out.writeUInt32BE(b.end - b.start + delta, b.start);
  return out;
}

const VIDEO_STBL = ['moov', 'trak', 'mdia', 'minf', 'stbl'];

/**
 * A chain of `url ` entries (external, no self-contained flag) each holding the next `dref`
 * header, `bytes` long, as an extension of the video's sample entry: a reader that scans every
 * byte and reads each entry's text to the end is quadratic in it.
 */
export function withDrefChain(mp4: Buffer, bytes: number): Buffer {
  const levels = Math.floor(bytes / 28);
  const total = levels * 28;
  const chain = Buffer.alloc(total);
  for (let k = 0; k < levels; k++) {
    const at = 28 * k;
    chain.writeUInt32BE(total - at, at);
    chain.write('dref', at + 4, 'latin1');
    chain.writeUInt32BE(0, at + 8);
    chain.writeUInt32BE(1, at + 12);
    chain.writeUInt32BE(total - at - 16, at + 16);
    chain.write('url ', at + 20, 'latin1');
    chain.writeUInt32BE(0, at + 24);
  }
  const boxes = chainOf(mp4, [...VIDEO_STBL, 'stsd', 'avc1']);
  const entry = boxes[boxes.length - 1]!;
  return splice(mp4, boxes, entry.end, entry.end, chain);
}

/**
 * The video's chunk table grown to `chunks` entries and its stsc to `entries` entries that go back
 * to the first chunk again and again: a walk over every chunk for every entry is entries x chunks.
 */
export function withStscWalk(mp4: Buffer, entries: number, chunks: number): Buffer {
  const stco = chainOf(mp4, [...VIDEO_STBL, 'stco']);
  const oldStco = stco[stco.length - 1]!;
  const first = mp4.readUInt32BE(oldStco.payloadStart + 8);
  const newStco = Buffer.concat([be32(16 + 4 * chunks), Buffer.from('stco'), be32(0), be32(chunks), ...Array.from({ length: chunks }, () => be32(first))]);
  let out = splice(mp4, stco.slice(0, -1), oldStco.start, oldStco.end, newStco);
  const stsc = chainOf(out, [...VIDEO_STBL, 'stsc']);
  const oldStsc = stsc[stsc.length - 1]!;
  const rows = Array.from({ length: entries }, (_, e) => Buffer.concat([be32(e % 2 === 0 ? 1 : chunks + 1), be32(1), be32(1)]));
  const newStsc = Buffer.concat([be32(16 + 12 * entries), Buffer.from('stsc'), be32(0), be32(entries), ...rows]);
  out = splice(out, stsc.slice(0, -1), oldStsc.start, oldStsc.end, newStsc);
  return out;
}

/**
 * Two movies: the original's as a `hoov` box (what ffmpeg reads as the movie), then a `moov`
 * whose every video sample is the whole media data: a composer reading that one copies the file
 * once per frame.
 */
export function withTwoMovies(mp4: Buffer): Buffer {
  const [moov] = chainOf(mp4, ['moov']);
  const mdat = childBoxes(mp4, 0, mp4.length).find((b) => b.type === 'mdat')!;
  const hoov = Buffer.from(mp4.subarray(moov!.start, moov!.end));
  hoov.write('hoov', 4, 'latin1');
  const crafted = Buffer.from(hoov);
  crafted.write('moov', 4, 'latin1');
  const stbl = chainOf(crafted, VIDEO_STBL)[VIDEO_STBL.length - 1]!;
  for (const c of childBoxes(crafted, stbl.payloadStart, stbl.end)) {
    if (c.type === 'stsz') {
      const n = crafted.readUInt32BE(c.payloadStart + 8);
      for (let i = 0; i < n; i++) crafted.writeUInt32BE(mdat.end - mdat.payloadStart, c.payloadStart + 12 + 4 * i);
    }
    if (c.type === 'stco') {
      const n = crafted.readUInt32BE(c.payloadStart + 4);
      for (let i = 0; i < n; i++) crafted.writeUInt32BE(mdat.payloadStart, c.payloadStart + 8 + 4 * i);
    }
    if (c.type === 'stsc') crafted.writeUInt32BE(1_000_000, c.payloadStart + 12); // every sample in the first chunk
  }
  return Buffer.concat([mp4.subarray(0, moov!.start), hoov, crafted]);
}

/**
 * `count` extra tracks appended to the movie, each a copy of the video track whose sample sizes
 * say "12 million samples of one byte" in a few bytes: a reader that allocates per sample and
 * track before any check runs out of memory.
 */
export function withManyTracks(mp4: Buffer, count: number): Buffer {
  const boxes = chainOf(mp4, ['moov', 'trak']);
  const trak = boxes[1]!;
  const copy = Buffer.from(mp4.subarray(trak.start, trak.end));
  // the copy inside a movie of its own, to walk it (offsets there are 8 past the copy's)
  const wrapped = Buffer.concat([be32(8 + copy.length), Buffer.from('moov'), copy]);
  const stbl = chainOf(wrapped, VIDEO_STBL)[VIDEO_STBL.length - 1]!;
  const local = { payloadStart: stbl.payloadStart - 8, end: stbl.end - 8 };
  const stsz = childBoxes(copy, local.payloadStart, local.end).find((c) => c.type === 'stsz')!;
  const fixed = Buffer.concat([be32(20), Buffer.from('stsz'), be32(0), be32(1), be32(12_000_000)]);
  const small = splice(copy, [], stsz.start, stsz.end, fixed);
  // the copy's own boxes around stsz shrink by the same amount
  const delta = fixed.length - (stsz.end - stsz.start);
  for (const path of [['trak'], ['trak', 'mdia'], ['trak', 'mdia', 'minf'], ['trak', 'mdia', 'minf', 'stbl']]) {
    const b = chainOf(wrapped, ['moov', ...path]).pop()!;
    small.writeUInt32BE(b.end - b.start + delta, b.start - 8);
  }
  const extra = Buffer.concat(Array.from({ length: count }, () => small));
  const [moov] = chainOf(mp4, ['moov']);
  return splice(mp4, [moov!], moov!.end, moov!.end, extra);
}
