/**
 * WordCut's benchmark: `npx tsx tools/bench/run.ts` (`npm run bench`). Measures, on real media made by
 * ffmpeg, each of our paths against the obvious alternative in the same run:
 *   1. upload into S3: streaming multipart (gateway's receiveSingleFile) vs buffering the file in memory;
 *   2. probing an object in S3: ffprobe over a presigned URL vs download-then-probe;
 *   3. probe jobs through the whole running system: accepted -> completed latency, p50/p95.
 * Prints a table and writes the same figures to .data/bench/last.json. See docs/BENCHMARKS.md.
 *
 * Environment: BENCH_UPLOAD_RUNS (default 5), BENCH_UPLOAD_SCALE (4: one more streaming upload of the
 * file 4x over; 0 skips it), BENCH_PROBE_RUNS (5), BENCH_JOBS (20), BENCH_SKIP_JOBS=1.
 * Needs Postgres and NATS (section 3, as for the integration tests) and the built services.
 */
import { FfmpegMediaTools } from '@wordcut/ffmpeg';
import { S3ObjectStorage } from '@wordcut/storage';
import { createReadStream, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join, relative } from 'node:path';
import { BENCH_DIR, BUCKET, MB, ROOT, S3_CREDENTIALS, checkInterrupted, cleanupAll, forkTs, interrupt, isInterrupted, onCleanup, round } from './common';
import { benchJobs, type JobsSummary } from './jobs';
import { LARGE, TINY, ensureMedia } from './media';
import { benchProbe, type ProbeSummary } from './probe';
import { benchUpload, type ScaledUploadRun, type UploadSummary } from './upload';

const intEnv = (name: string, dflt: number): number => {
  const v = process.env[name];
  const n = v === undefined || v === '' ? dflt : Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, got ${v}`);
  return n;
};

const log = (line: string) => process.stdout.write(`${line}\n`);

/** Plain-text table; numbers right-aligned. */
function table(headers: string[], rows: Array<Array<string | number>>): string {
  const cells = [headers, ...rows.map((r) => r.map(String))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const numeric = headers.map((_, i) => rows.every((r) => typeof r[i] === 'number' || /^[\d.,–x× -]+$/.test(String(r[i]))));
  const line = (r: string[]) => r.map((c, i) => (numeric[i] && i > 0 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd();
  return [line(cells[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].map((l) => `  ${l}`).join('\n');
}

interface Results {
  startedAt: string;
  machine: { cpus: number; cpuModel: string; memoryGiB: number; node: string; ffmpeg: string; platform: string; loadAverageAtStart: number[]; loadAverageAtEnd: number[] };
  media: { file: string; sizeBytes: number; sizeMiB: number; description: string; generatedSec: number };
  upload?: { runsPerPath: number; paths: UploadSummary[]; scaled?: ScaledUploadRun; peakRssRatio: number; addedRssRatio: number; throughputRatio: number };
  probe?: { runsPerPath: number; paths: ProbeSummary[]; speedup: number; bytesRatio: number };
  jobs?: { jobsPerMode: number; mediaConcurrency: number; stackStartupSec: number; modes: JobsSummary[] };
  errors: Record<string, string>;
  totalSec: number;
}

function render(r: Results): string {
  const out: string[] = [];
  out.push(`WordCut benchmark, ${r.startedAt}`);
  out.push(`machine: ${r.machine.cpus} CPU (${r.machine.cpuModel}), ${r.machine.memoryGiB} GiB, Node ${r.machine.node}, ${r.machine.ffmpeg}`);
  out.push(`load:    1/5/15-minute load average ${r.machine.loadAverageAtStart.join(' ')} at start, ${r.machine.loadAverageAtEnd.join(' ')} at the end`);
  out.push(`media:   ${r.media.file}, ${r.media.sizeMiB} MiB (${r.media.description})`);
  if (r.upload) {
    const u = r.upload;
    out.push('', `1. Upload ${r.media.sizeMiB} MiB into S3: streaming multipart POST -> server process -> s3rver (${u.runsPerPath} runs per path)`);
    out.push(
      table(
        ['path', 'MiB/s (median)', 'time s', 'server peak RSS MiB', 'idle RSS MiB', 'added by upload MiB', 'server CPU s'],
        [
          ...u.paths.map((p) => [p.label, p.medianMiBPerSec, p.medianSeconds, p.peakRssMiB, p.idleRssMiB, p.addedRssMiB, p.medianServerCpuSec]),
          ...(u.scaled ? [[u.scaled.label, u.scaled.mibPerSec, u.scaled.seconds, u.scaled.peakRssMiB, u.scaled.idleRssMiB, u.scaled.addedRssMiB, u.scaled.serverCpuSec]] : []),
        ],
      ),
    );
    out.push(`  => streaming: peak RSS ${u.peakRssRatio}x smaller (memory added by the upload ${u.addedRssRatio}x smaller); throughput ${u.throughputRatio}x the alternative's`);
  }
  if (r.probe) {
    const p = r.probe;
    out.push('', `2. Probe the ${r.media.sizeMiB} MiB object in S3 (${p.runsPerPath} runs per path, through a byte-counting proxy)`);
    out.push(
      table(
        ['path', 'median ms', 'min-max ms', 'MiB from S3', 'S3 requests'],
        p.paths.map((x) => [x.label, x.medianMs, `${Math.round(x.minMs)}-${Math.round(x.maxMs)}`, x.medianMiBFromS3, x.medianRequests]),
      ),
    );
    out.push(`  => presigned URL: ${p.speedup}x faster, ${p.bytesRatio}x fewer bytes from S3`);
  }
  if (r.jobs) {
    const j = r.jobs;
    out.push('', `3. Probe jobs through the whole system (${j.jobsPerMode} per mode, ${TINY.description}; 1 media worker, concurrency ${j.mediaConcurrency})`);
    out.push(`   latency = client got 202 -> jobs service committed 'completed'; stack started in ${j.stackStartupSec} s`);
    out.push(
      table(
        ['mode', 'POST->202 p50 ms', 'p50 ms', 'p95 ms', 'max ms', '->processing p50 ms', 'processing p50 ms', 'wall s'],
        j.modes.map((m) => [m.label, m.acceptP50Ms, m.p50Ms, m.p95Ms, m.maxMs, m.toProcessingP50Ms, m.processingP50Ms, m.wallSec]),
      ),
    );
  }
  for (const [section, message] of Object.entries(r.errors)) out.push('', `${section}: FAILED: ${message}`);
  out.push('', `total ${r.totalSec} s; figures in ${relative(ROOT, join(BENCH_DIR, 'last.json'))}`);
  return out.join('\n');
}

async function main(): Promise<number> {
  const t0 = performance.now();
  process.env['AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED'] ??= 'true';
  const uploadRuns = intEnv('BENCH_UPLOAD_RUNS', 5);
  const scaleRepeat = process.env['BENCH_UPLOAD_SCALE'] === '0' ? 0 : intEnv('BENCH_UPLOAD_SCALE', 4);
  const probeRuns = intEnv('BENCH_PROBE_RUNS', 5);
  const jobCount = intEnv('BENCH_JOBS', 20);
  const skipJobs = process.env['BENCH_SKIP_JOBS'] === '1';

  const tools = new FfmpegMediaTools();
  const versions = await tools.versions();
  const large = await ensureMedia(LARGE, log);
  const tiny = await ensureMedia(TINY, log);
  log(`media ready: ${relative(ROOT, large.path)} (${round(large.sizeBytes / MB)} MiB)${large.generatedSec ? `, generated in ${round(large.generatedSec)} s` : ', cached'}`);

  const results: Results = {
    startedAt: new Date().toISOString(),
    machine: {
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
      memoryGiB: round(totalmem() / 1024 ** 3),
      node: process.version,
      ffmpeg: versions.ffmpeg.replace(/ Copyright.*$/, ''),
      platform: `${process.platform} ${process.arch}`,
      // other work on the machine skews every figure but the memory ones: kept with the figures
      loadAverageAtStart: loadavg().map((l) => round(l, 2)),
      loadAverageAtEnd: [],
    },
    media: {
      file: relative(ROOT, large.path),
      sizeBytes: large.sizeBytes,
      sizeMiB: round(large.sizeBytes / MB),
      description: large.description,
      generatedSec: round(large.generatedSec),
    },
    errors: {},
    totalSec: 0,
  };

  const s3 = forkTs('s3-server.ts');
  const { endpoint, proxy } = await s3.message((m) => ((m as { type?: string }).type === 'ready' ? (m as { endpoint: string; proxy: string }) : undefined));
  const base = { region: 'us-east-1', ...S3_CREDENTIALS, bucket: BUCKET, forcePathStyle: true };
  // direct to s3rver; presigned URLs point at the counting proxy
  const storage = new S3ObjectStorage({ ...base, endpoint, publicEndpoint: proxy });
  const storageViaProxy = new S3ObjectStorage({ ...base, endpoint: proxy });
  onCleanup('S3 clients', () => {
    storage.destroy();
    storageViaProxy.destroy();
  });

  log('1/3 upload ...');
  try {
    const { paths, scaled } = await benchUpload({ s3Endpoint: endpoint, file: large.path, sizeBytes: large.sizeBytes, storage, runs: uploadRuns, scaleRepeat, log });
    const [ours, alt] = paths as [UploadSummary, UploadSummary];
    results.upload = {
      runsPerPath: uploadRuns,
      paths,
      ...(scaled ? { scaled } : {}),
      peakRssRatio: round(alt.peakRssMiB / ours.peakRssMiB),
      addedRssRatio: round(alt.addedRssMiB / ours.addedRssMiB),
      throughputRatio: round(ours.medianMiBPerSec / alt.medianMiBPerSec, 2),
    };
  } catch (err) {
    results.errors['upload'] = (err as Error).message;
  }

  log('2/3 probe ...');
  try {
    const key = 'bench/probe-source.mp4';
    await storage.upload(key, createReadStream(large.path), { contentType: 'video/mp4' });
    const paths = await benchProbe({ key, storage, storageViaProxy, s3, runs: probeRuns, log });
    const [ours, alt] = paths as [ProbeSummary, ProbeSummary];
    results.probe = {
      runsPerPath: probeRuns,
      paths,
      speedup: round(alt.medianMs / ours.medianMs),
      bytesRatio: Math.round(alt.medianMiBFromS3 / Math.max(ours.medianMiBFromS3, 0.01)),
    };
    await storage.delete(key);
  } catch (err) {
    results.errors['probe'] = (err as Error).message;
  }

  if (skipJobs) {
    log('3/3 jobs: skipped (BENCH_SKIP_JOBS=1)');
  } else {
    log('3/3 jobs through the whole system ...');
    try {
      const { summaries, startupSec } = await benchJobs({ s3Endpoint: endpoint, tinyMedia: tiny.path, jobs: jobCount, log });
      results.jobs = { jobsPerMode: jobCount, mediaConcurrency: Number(process.env['MEDIA_CONCURRENCY'] ?? 1), stackStartupSec: startupSec, modes: summaries };
    } catch (err) {
      results.errors['jobs'] = (err as Error).message;
    }
  }

  await cleanupAll();
  checkInterrupted();
  results.totalSec = round((performance.now() - t0) / 1000);
  results.machine.loadAverageAtEnd = loadavg().map((l) => round(l, 2));
  mkdirSync(BENCH_DIR, { recursive: true });
  const { errors, totalSec, ...figures } = results;
  writeFileSync(join(BENCH_DIR, 'last.json'), `${JSON.stringify({ ...figures, errors, totalSec }, null, 2)}\n`);
  log('');
  log(render(results));
  return Object.keys(results.errors).length > 0 ? 1 : 0;
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (isInterrupted()) return;
    interrupt();
    process.stderr.write(`bench: ${signal}, stopping and cleaning up ...\n`);
    // stop the children now (whatever awaits them fails fast); main() stops at its next check and
    // cleans up again whatever it created meanwhile; if it does not settle, give up after 30 s
    void cleanupAll();
    setTimeout(() => void cleanupAll().finally(() => process.exit(130)), 30_000).unref();
  });
}

main()
  .then((code) => process.exit(code))
  .catch(async (err: unknown) => {
    if (!isInterrupted()) process.stderr.write(`bench: ${(err as Error).stack ?? String(err)}\n`);
    await cleanupAll();
    process.exit(isInterrupted() ? 130 : 1);
  });
