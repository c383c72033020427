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
