/**
 * Section 2: probing an object in S3, the media worker's way (ffprobe reads a presigned GET URL) vs
 * downloading the whole object to a temporary file and probing that. Both read through the counting
 * proxy in front of S3 (s3-server.ts), which reports the bytes S3 sent.
 */
import type { ProbeResult } from '@wordcut/contracts';
import { FfmpegMediaTools } from '@wordcut/ffmpeg';
import type { ObjectStorage } from '@wordcut/storage';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { MB, checkInterrupted, median, onCleanup, round, type Child } from './common';

export type ProbeMode = 'url' | 'download';

export interface ProbeRun {
  mode: ProbeMode;
  ms: number;
  bytesFromS3: number;
  requests: number;
}

export interface ProbeSummary {
  mode: ProbeMode;
  label: string;
  runs: ProbeRun[];
  medianMs: number;
  minMs: number;
  maxMs: number;
  medianMiBFromS3: number;
  medianRequests: number;
}

export const PROBE_LABELS: Record<ProbeMode, string> = {
  url: 'ours: ffprobe over a presigned GET URL',
  download: 'alternative: download to a temp file, ffprobe the file',
};

/** Same container, duration and streams: both ways must see the same media. */
function fingerprint(r: ProbeResult): string {
  return JSON.stringify({ f: r.formatName, d: r.durationSec, s: r.streams.map((s) => [s.codecType, s.codecName, s.width, s.height, s.sampleRate]) });
}

export async function benchProbe(o: {
  key: string;
  /** Presigns URLs that point at the counting proxy. */
  storage: ObjectStorage;
  /** Reads through the counting proxy (an S3 client whose endpoint is the proxy). */
  storageViaProxy: ObjectStorage;
  s3: Child;
  runs: number;
  log: (line: string) => void;
}): Promise<ProbeSummary[]> {
  const tools = new FfmpegMediaTools();
  const dir = mkdtempSync(join(tmpdir(), 'wordcut-bench-probe-'));
  const forget = onCleanup(`temp dir ${dir}`, () => rmSync(dir, { recursive: true, force: true }));
  const stats = async () => {
    o.s3.send('stats');
    return o.s3.message((m) => ((m as { type?: string }).type === 'stats' ? (m as { requests: number; bytesSent: number }) : undefined));
  };
  const reset = async () => {
    o.s3.send('reset');
    await o.s3.message((m) => ((m as { type?: string }).type === 'reset' ? true : undefined));
  };

  const once = async (mode: ProbeMode, i: number): Promise<{ run: ProbeRun; result: ProbeResult }> => {
    checkInterrupted();
    await reset();
    const t0 = performance.now();
    let result: ProbeResult;
    if (mode === 'url') {
      // as the worker does it: presign (TTL: probe timeout + a minute), then ffprobe the URL
      const url = await o.storage.presignGet(o.key, 120);
      result = await tools.probe(url, { timeoutMs: 60_000 });
    } else {
      const file = join(dir, `object-${i}.mp4`);
      try {
        const obj = await o.storageViaProxy.getStream(o.key);
        await pipeline(obj.body, createWriteStream(file));
        result = await tools.probe(file, { timeoutMs: 60_000 });
      } finally {
        rmSync(file, { force: true });
      }
    }
    const ms = performance.now() - t0;
    const s = await stats();
    return { run: { mode, ms: round(ms, 1), bytesFromS3: s.bytesSent, requests: s.requests }, result };
  };

  try {
    // one unmeasured round: ffprobe and the SDK loaded, sockets and page cache warm
    const reference = fingerprint((await once('url', -1)).result);
    await once('download', -1);
    const runs: ProbeRun[] = [];
    for (let i = 0; i < o.runs; i++) {
      const order: ProbeMode[] = i % 2 === 0 ? ['url', 'download'] : ['download', 'url'];
      for (const mode of order) {
        const { run, result } = await once(mode, i);
        if (fingerprint(result) !== reference) throw new Error(`probe (${mode}) saw other media: ${fingerprint(result)} vs ${reference}`);
        o.log(`  probe ${mode.padEnd(8)} run ${i + 1}/${o.runs}: ${run.ms.toFixed(0)} ms, ${round(run.bytesFromS3 / MB, 2)} MiB from S3 in ${run.requests} request(s)`);
        runs.push(run);
      }
    }
    return (['url', 'download'] as const).map((mode) => {
      const mine = runs.filter((r) => r.mode === mode);
      const ms = mine.map((r) => r.ms);
      return {
        mode,
        label: PROBE_LABELS[mode],
        runs: mine,
        medianMs: round(median(ms)),
        minMs: Math.min(...ms),
        maxMs: Math.max(...ms),
        medianMiBFromS3: round(median(mine.map((r) => r.bytesFromS3)) / MB, 2),
        medianRequests: median(mine.map((r) => r.requests)),
      };
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
    forget();
  }
}
