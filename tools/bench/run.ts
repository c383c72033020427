/**
 * Over 400 lines: the runner holds every section's wiring, targets and printed summary in one place.
 *
 * WordCut's benchmark: `npx tsx tools/bench/run.ts` (`npm run bench`). Measures, on real media made by
 * ffmpeg, each of our paths against the obvious alternative in the same run:
 *   1. upload into S3: streaming multipart (gateway's receiveFiles) vs buffering the file in memory,
 *      and vs a plain S3 put of the same file (target: >= 0.8 of its throughput);
 *   2. probing an object in S3: ffprobe over a presigned URL vs download-then-probe;
 *   3. waveform peaks: computePeaks vs native-rate float decode + JS peaks (target: >= 300x realtime);
 *   4. transcripts through a real gateway: GET of 30,000 words (target < 100 ms) and PATCH of word
 *      texts under 50 clients (target p95 < 30 ms) vs one jsonb document per transcript;
 *   5. probe jobs through the whole running system: accepted -> completed latency, p50/p95;
 *   6. rendering edits of a 10-minute 720p talk with renderEdit: 20 cuts vs a trim/concat full
 *      re-encode (target >= 10x faster), 20 mutes vs encoding the audio alone (target < 1.5x its
 *      time), a 60 s 9:16 clip at 1080x1920 (target >= 2x realtime) vs a plain veryfast command;
 *   7, 8. archived (the editor and its timeline in Chromium): tag bench-archive-2026-12, docs/BENCHMARKS.md;
 *   9. publishing uploads: the export worker's s3UploadSource + HttpProviderClient.upload (resumable, the
 *      default PROVIDER_CHUNK_BYTES, and other chunk sizes) of the large object from S3 to the provider
 *      sandbox vs reading the whole object into a Buffer and sending it in one PUT; every upload's stored
 *      sha256 checked (targets: ours adds < 128 MiB of peak RSS at 1x and 4x the object size; throughput
 *      >= 0.5x the single PUT's);
 *  10. the gateway's identity guard: IdentityGuard.canActivate in process for a provider session token
 *      and a gateway session token (target: p95 < 1 ms each), against the same tokens' GET transcript
 *      and PATCH word-delta calls through the gateway in all.
 *  11. reading WebVTT files in process: parseVttDocument on a 1 MiB line, 100,000 cues, 50,000 nested
 *      tags (target: each < 1 s) and two 2-hour caption files, vs the webvtt-parser package's parse().
 *  12. pause detection on the synthesised talk looped to 10 minutes and to 3 hours: one decode (peaks and
 *      frame energy) + the pause rules (target: < 1 s per 10 minutes of audio on each), and the same rules
 *      on a stored energy series, vs ffmpeg silencedetect alone.
 *  13. key moments on a 30,000-word transcript (the synthesised lesson repeated, with an energy series):
 *      findKeyMoments (target: median < 2 s) vs wink-nlp reading the whole transcript as one document.
 *  14. archived (the silence panel in Chromium), as 7 and 8;
 *  18. our MP4 reader: the upload's movie check on a real 30-minute 60 fps MP4 in slices vs the same
 *      tables parsed at once (time and the longest event-loop hold; target < 250 ms), and the crafted
 *      files of its security review (each refused; target < 5 s).
 * Prints a table with the targets marked and writes the same figures to .data/bench/last.json.
 * See docs/BENCHMARKS.md.
 *
 * Environment: BENCH_UPLOAD_RUNS (default 5), BENCH_UPLOAD_SCALE (4: one more streaming upload of the
 * file 4x over; 0 skips it), BENCH_PROBE_RUNS (5), BENCH_WAVEFORM_RUNS (3), BENCH_TRANSCRIPT_CLIENTS
 * (50), BENCH_TRANSCRIPT_PATCHES (1000 per run), BENCH_TRANSCRIPT_GETS (20), BENCH_TRANSCRIPT_THINK_MS
 * (1000; 0 skips the paced run), BENCH_JOBS (20), BENCH_RENDER_VERIFY=1 (section 6 also reads back every
 * frame number and the A/V sync of its cut render, ~30 s more), BENCH_EXPORT_RUNS (3), BENCH_EXPORT_CHUNKS_MIB (1,32: the chunk
 * sizes section 9 compares with the default, multiples of 0.25; empty: none), BENCH_EXPORT_SCALE (4: one
 * more upload of ours on an object of the file 4x over; 0 skips it), BENCH_IDENTITY_CALLS (2000 in-process
 * guard calls per token kind), BENCH_IDENTITY_REQUESTS (200 HTTP requests per call and token kind),
 * BENCH_VTT_RUNS (5 per path and case), BENCH_SILENCE_RUNS (3 per path on 10 minutes), BENCH_SILENCE_LONG_RUNS
 * (1 per path on 3 hours), BENCH_KEYMOMENTS_RUNS (5 per path),
 * BENCH_OPERATOR_REQUESTS (100 per dashboard request), BENCH_SCALING_JOBS (20 clip renders per worker count),
 * BENCH_RENDER_LONG=0 (section 17 without the 60-minute file), BENCH_MP4_RUNS (5), and
 * BENCH_SKIP_<UPLOAD|PROBE|WAVEFORM|TRANSCRIPT|JOBS|RENDER|EXPORT|IDENTITY|VTT|SILENCE|KEYMOMENTS|OPERATOR|SCALING|RENDERAPI|MP4READER>=1.
 * Needs Postgres and NATS (sections 4, 5, 10, 15, 16 and 17, as for the integration tests) and the built services.
 */
import { FfmpegMediaTools } from '@wordcut/ffmpeg';
import { S3ObjectStorage } from '@wordcut/storage';
import { createReadStream, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join, relative } from 'node:path';
import { WAVEFORM_STORED_PEAKS_PER_SECOND } from '@wordcut/contracts';
import {
  BENCH_DIR,
  BUCKET,
  MB,
  ROOT,
  S3_CREDENTIALS,
  checkInterrupted,
  checkTarget,
  cleanupAll,
  forkTs,
  interrupt,
  isInterrupted,
  onCleanup,
  round,
  targetMark,
  type TargetCheck,
} from './common';
import { benchExportUpload, type ExportUploadResults } from './export-upload';
import { benchIdentity, type IdentityResults } from './identity';
import { benchJobs, type JobsSummary } from './jobs';
import { LARGE, LONG, TINY, ensureMedia } from './media';
import { benchProbe, type ProbeSummary } from './probe';
import { benchRender, ensureRenderSource, type RenderPathRun, type RenderResults } from './render';
import { benchTranscript, type ServerTimedSummary, type TranscriptResults } from './transcript';
import { benchUpload, type ScaledUploadRun, type UploadSummary } from './upload';
import { VTT_PATHOLOGICAL, benchVttParse, renderVttParse, type VttParseResults } from './vtt-parse';
import { benchMp4Reader, renderMp4Reader, type Mp4ReaderResults } from './mp4-reader';
import { benchWaveform, type WaveformMediaResult } from './waveform';
import { benchSilence, renderSilence, type SilenceResults } from './silence';
import { benchKeyMoments, renderKeyMoments, type KeyMomentsResults } from './keymoments';
import { benchScenes } from './scenes';
import { benchOperator, renderOperator, type OperatorResults } from './operator';
import { benchScaling, renderScaling, type ScalingResults } from './scaling';
import { benchRenderApi, renderRenderApi, type RenderApiResults } from './render-api';

const intEnv = (name: string, dflt: number): number => {
  const v = process.env[name];
  const n = v === undefined || v === '' ? dflt : Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, got ${v}`);
  return n;
};

/** Like intEnv, but 0 is allowed. */
const countEnv = (name: string, dflt: number): number => (process.env[name] === '0' ? 0 : intEnv(name, dflt));
/** A comma-separated list of chunk sizes in MiB, each a positive multiple of 256 KiB (the resumable protocol's unit). */
const chunkListEnv = (name: string, dflt: string): number[] => {
  const v = process.env[name] ?? dflt;
  const sizes = v.trim() === '' ? [] : v.split(',').map((x) => Number(x.trim()));
  for (const n of sizes) if (!(n > 0) || (n * MB) % (256 * 1024) !== 0) throw new Error(`${name} must list chunk sizes in MiB, multiples of 0.25, got ${v}`);
  return sizes;
};
/** The number of sections, for the progress lines. */
const SECTIONS = 18;
const skipped = (section: string): boolean => process.env[`BENCH_SKIP_${section}`] === '1';

const log = (line: string) => process.stdout.write(`${line}\n`);

/** Plain-text table; numbers right-aligned. */
function table(headers: string[], rows: Array<Array<string | number>>): string {
  const cells = [headers, ...rows.map((r) => r.map(String))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const numeric = headers.map((_, i) => rows.every((r) => typeof r[i] === 'number' || /^[\d.,–x×/ -]+$/.test(String(r[i]))));
  const line = (r: string[]) => r.map((c, i) => (numeric[i] && i > 0 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd();
  return [line(cells[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].map((l) => `  ${l}`).join('\n');
}

interface Results {
  startedAt: string;
  machine: { cpus: number; cpuModel: string; memoryGiB: number; node: string; ffmpeg: string; platform: string; loadAverageAtStart: number[]; loadAverageAtEnd: number[] };
  media: { file: string; sizeBytes: number; sizeMiB: number; description: string; generatedSec: number };
  upload?: {
    runsPerPath: number;
    paths: UploadSummary[];
    scaled?: ScaledUploadRun;
    peakRssRatio: number;
    addedRssRatio: number;
    /** ours / buffering, MiB/s */
    throughputRatio: number;
    /** ours / plain S3 put, MiB/s (target >= 0.8) */
    throughputVsPlain: number;
  };
  probe?: { runsPerPath: number; paths: ProbeSummary[]; speedup: number; bytesRatio: number };
  waveform?: { runsPerPath: number; peaksPerSecond: number; media: WaveformMediaResult[] };
  transcript?: TranscriptResults;
  jobs?: { jobsPerMode: number; mediaConcurrency: number; stackStartupSec: number; modes: JobsSummary[] };
  render?: RenderResults;
  exportUpload?: ExportUploadResults;
  identity?: IdentityResults;
  vttParse?: VttParseResults;
  silence?: SilenceResults;
  keyMoments?: KeyMomentsResults;
  operator?: OperatorResults;
  scaling?: ScalingResults;
  renderApi?: RenderApiResults;
  mp4Reader?: Mp4ReaderResults;
  /** every target with its figure and whether it was met */
  targets: TargetCheck[];
  errors: Record<string, string>;
  totalSec: number;
}

/** The target checks whose name starts with `prefix`, as `=> ... : PASS` lines. */
function targetLines(r: Results, prefix: string): string[] {
  return r.targets.filter((t) => t.name.startsWith(prefix)).map((t) => `  => ${t.name}: ${t.value}${t.unit ? ` ${t.unit}` : ''} (${targetMark(t)})`);
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
    out.push(`  => streaming vs buffering: peak RSS ${u.peakRssRatio}x smaller (memory added by the upload ${u.addedRssRatio}x smaller); throughput ${u.throughputRatio}x the buffering's`);
    out.push(...targetLines(r, 'upload'));
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
  if (r.waveform) {
    const w = r.waveform;
    out.push('', `3. Waveform peaks (${w.peaksPerSecond} peaks/s, local file, ${w.runsPerPath} runs per path; x realtime = media duration / wall time)`);
    out.push(
      table(
        ['media', 'path', 'decodes to', 'median s', 'x realtime', 'peaks'],
        w.media.flatMap((m) => m.paths.map((p) => [`${m.media} (${m.durationSec} s)`, p.label, p.decodedAt, p.medianSeconds, p.medianRealtime, p.peaks])),
      ),
    );
    for (const m of w.media) out.push(`  => ${m.media}: the paths' peaks differ by ${m.meanAbsDiff} of 255 on average (resampling, mono mix)`);
    out.push(...targetLines(r, 'waveform'));
  }
  if (r.transcript) {
    const t = r.transcript;
    out.push('', `4. Transcripts through the gateway process vs one jsonb document per transcript (HTTP keep-alive)`);
    out.push(`   ${t.bigWords}-word transcript (${t.bigParagraphs} paragraphs, ${t.bigFillerWords} fillers), one request at a time; PATCH = 1-3 word texts, Prefer: return=minimal, with version`);
    const inGateway = (s: ServerTimedSummary) => (s.server ? `${s.server.p50Ms} / ${s.server.p95Ms}` : '-');
    out.push(
      table(
        ['path', 'GET p50 ms', 'GET p95 ms', 'in gateway p50 / p95', 'body MiB', 'PATCH p50 ms', 'PATCH p95 ms', 'in gateway p50 / p95'],
        t.paths.map((p) => [p.label, p.get.p50Ms, p.get.p95Ms, inGateway(p.get), p.get.bodyMiB, p.patchBig.p50Ms, p.patchBig.p95Ms, inGateway(p.patchBig)]),
      ),
    );
    out.push(
      `   PATCH under ${t.clients} clients, each on its own ${t.clientWords}-word transcript, ${t.patchesPerClient * t.clients} requests per run:` +
        (t.thinkMs > 0 ? ` paced = each client pauses ${t.thinkMs} ms on average between edits;` : '') +
        ' closed = back to back',
    );
    const row = (label: string, mode: string, s: ServerTimedSummary | undefined) => (s ? [[label, mode, s.p50Ms, s.p95Ms, s.maxMs, s.perSec, inGateway(s)]] : []);
    out.push(
      table(
        ['path', 'run', 'p50 ms', 'p95 ms', 'max ms', 'req/s', 'in gateway p50 / p95'],
        t.paths.flatMap((p) => [...row(p.label, 'paced', p.patchPaced), ...row(p.label, 'closed', p.patchClosed)]),
      ),
    );
    if (t.fillerMismatches > 0) out.push(`  => WARNING: ${t.fillerMismatches} transcript(s) ended with other filler words on the two paths after the same edits`);
    out.push(...targetLines(r, 'transcript'));
  }
  if (r.jobs) {
    const j = r.jobs;
    out.push('', `5. Probe jobs through the whole system (${j.jobsPerMode} per mode, ${TINY.description}; 1 media worker, concurrency ${j.mediaConcurrency})`);
    out.push(`   latency = client got 202 -> jobs service committed 'completed'; stack started in ${j.stackStartupSec} s`);
    out.push(
      table(
        ['mode', 'POST->202 p50 ms', 'p50 ms', 'p95 ms', 'max ms', '->processing p50 ms', 'processing p50 ms', 'wall s'],
        j.modes.map((m) => [m.label, m.acceptP50Ms, m.p50Ms, m.p95Ms, m.maxMs, m.toProcessingP50Ms, m.processingP50Ms, m.wallSec]),
      ),
    );
  }
  if (r.render) {
    const x = r.render;
    const s = x.source;
    const paths = (runs: RenderPathRun[]) =>
      table(
        ['path', 'time s', 'x realtime', 'frames', 'expected', 'A/V end diff ms'],
        runs.map((p) => [p.label, p.seconds, p.realtime, p.frames ?? '-', p.expectedFrames ?? '-', p.avDurationDiffMs ?? '-']),
      );
    const ours = (d: RenderResults['cuts']['ours']) =>
      `  => ours: path ${d.renderPath}, audio ${d.audio}, ${round(d.encodedShare * 100)}% of the video frames re-encoded (${d.encodedFrames} of ${d.totalFrames})` +
      `${d.fallbackReason ? ` (${d.fallbackReason})` : ''}; media info ${d.mediaInfoSec} s + renderEdit ${d.renderSec} s`;
    out.push('', `6. Render edits of ${s.file} (${s.sizeMiB} MiB, ${s.frames} frames, ${s.keyframes} keyframes; one run per path; x realtime = output duration / wall time)`);
    const c = x.cuts;
    out.push(`   ${c.removed.length} cuts: ${c.removedSec} s removed, ${c.keptSegments} kept ranges, ${c.outputSec} s of output`);
    out.push(paths(c.paths));
    out.push(ours(c.ours));
    out.push(`  => ours ${c.speedup}x faster than the full re-encode; ${c.oursVsCopy}x the time of a stream copy of the whole file`);
    if (!c.framesOk) out.push('  => WARNING: a cut render does not have the expected number of frames');
    if (c.verify) {
      const v = c.verify;
      out.push(`  => verified: ${v.framesRead} frames read back, ${v.frameMismatches} not the expected source frame; A/V sync max ${v.syncMaxOffsetMs} ms (interior ${v.syncInteriorMaxOffsetMs} ms), ${v.burstsMatched} bursts, ${v.burstsUnmatched} cut at a boundary`);
    }
    out.push(...targetLines(r, 'render: cuts'));
    const m = x.mutes;
    out.push(`   ${m.ranges.length} mutes of 1 s (volumes 0 / 0.1 / 0.3) over the whole ${m.outputSec} s`);
    out.push(paths(m.paths));
    out.push(ours(m.ours));
    out.push(`  => ours takes ${m.ratio}x the time of encoding the audio alone`);
    if (!m.framesOk) out.push('  => WARNING: the muted render does not have every source frame');
    if (m.verify) out.push(`  => verified: level / source level ${m.verify.map((l) => `${l.measured} at volume ${l.volume}`).join(', ')}`);
    out.push(...targetLines(r, 'render: mutes'));
    const k = x.clip;
    out.push(`   ${k.durationSec} s ${k.ratio} clip at ${k.width}x${k.height} from ${k.startSec} s (-vf ${k.filter})`);
    out.push(paths(k.paths));
    out.push(ours(k.ours));
    out.push(`  => ours ${k.realtime}x realtime, ${k.speedupVsPlain}x the plain command's speed`);
    if (!k.framesOk) out.push('  => WARNING: the clip does not have the expected frames or size');
    if (k.zoomed) {
      const z = k.zoomed;
      out.push(`   the same clip zoomed ${z.reframe.scale}x, panned ${z.reframe.offsetX} % / ${z.reframe.offsetY} % (ours -vf ${z.filter}; plain -vf ${z.plainFilter})`);
      out.push(paths(z.paths));
      out.push(ours(z.ours));
      out.push(`  => ours ${z.realtime}x realtime, ${z.speedupVsPlain}x the plain command's speed`);
      if (!z.framesOk) out.push('  => WARNING: the zoomed clip does not have the expected frames or size');
    }
    out.push(...targetLines(r, 'render: clip'));
    out.push(`   section time ${x.sectionSec} s${s.generatedSec ? ` (+ ${s.generatedSec} s generating the source)` : ''}`);
  }
  if (r.exportUpload) {
    const x = r.exportUpload;
    out.push('', `9. Publish the ${x.sizeMiB} MiB object from S3 to the provider sandbox on loopback (${x.runsPerPath} runs per path; each upload in a fresh child process)`);
    out.push('   time = reading the source (ours: HEAD + sha256 pass; alternative: the whole GET + sha256) + the upload to the provider\'s final answer');
    out.push(
      table(
        ['path', 'requests', 'MiB/s (median)', 'time s', 'source s', 'upload s', 'upload MiB/s', 'peak RSS MiB', 'idle RSS MiB', 'added by source MiB', 'added in all MiB', 'CPU s'],
        [
          ...x.paths.map((p) => [
            p.label,
            p.requests,
            p.medianMiBPerSec,
            p.medianSeconds,
            p.medianPrepareSec,
            p.medianUploadSec,
            p.medianUploadMiBPerSec,
            p.peakRssMiB,
            p.idleRssMiB,
            p.sourceAddedRssMiB,
            p.addedRssMiB,
            p.medianCpuSec,
          ]),
          ...(x.scaled
            ? [[x.scaled.label, x.scaled.requests, x.scaled.mibPerSec, x.scaled.seconds, x.scaled.prepareSec, x.scaled.uploadSec, x.scaled.uploadMiBPerSec, x.scaled.peakRssMiB, x.scaled.idleRssMiB, x.scaled.sourceAddedRssMiB, x.scaled.addedRssMiB, x.scaled.cpuSec]]
            : []),
        ],
      ),
    );
    out.push(
      `  => ours vs the buffered single PUT: throughput ${x.throughputRatio}x (upload part alone ${x.uploadThroughputRatio}x); memory added ${x.addedRssRatio}x smaller; ` +
        `${x.verifiedUploads} uploads stored with the source's sha256`,
    );
    out.push(...targetLines(r, 'export'));
    out.push(`   section time ${x.sectionSec} s`);
  }
  if (r.identity) {
    const x = r.identity;
    const inGateway = (s: ServerTimedSummary) => (s.server ? `${s.server.p50Ms} / ${s.server.p95Ms}` : '-');
    out.push('', `10. The identity guard: resolving the caller's bearer token on every gateway request, provider session token vs gateway session token`);
    out.push(
      `   guard = IdentityGuard.canActivate in process (the gateway's compiled classes and configuration), ${x.calls} calls per kind after ${x.warmupCalls} warm-up; ` +
        `fromBearer = the token's verification alone`,
    );
    out.push(`   GET transcript / PATCH 1-3 word texts of a ${x.words}-word transcript through the gateway, ${x.requests} requests per call and kind, one at a time, kinds interleaved`);
    out.push(
      table(
        ['token', 'guard p50 µs', 'guard p95 µs', 'mean µs', 'fromBearer p50 µs', 'GET p50 ms', 'GET p95 ms', 'in gateway p50 / p95', 'PATCH p50 ms', 'PATCH p95 ms', 'in gateway p50 / p95'],
        x.kinds.map((k) => [k.label, k.guard.p50Us, k.guard.p95Us, k.guard.meanUs, k.fromBearer.p50Us, k.get.p50Ms, k.get.p95Ms, inGateway(k.get), k.patch.p50Ms, k.patch.p95Ms, inGateway(k.patch)]),
      ),
    );
    for (const k of x.kinds) out.push(`  => ${k.kind} token: the guard is ${k.guardShareOfGetPct}% of a GET's p50 and ${k.guardShareOfPatchPct}% of a PATCH's (client time)`);
    out.push(...targetLines(r, 'identity'));
    out.push(`   section time ${x.sectionSec} s`);
  }
  if (r.vttParse) {
    out.push('', ...renderVttParse(r.vttParse, table));
    out.push(...targetLines(r, 'vtt'));
  }
  if (r.silence) {
    out.push('', ...renderSilence(r.silence, table));
    out.push(...targetLines(r, 'silence:'));
  }
  if (r.keyMoments) {
    out.push('', ...renderKeyMoments(r.keyMoments, table));
    out.push(...targetLines(r, 'keymoments'));
  }
  if (r.operator) {
    out.push('', ...renderOperator(r.operator, table));
    out.push(...targetLines(r, 'operator'));
  }
  if (r.scaling) out.push('', ...renderScaling(r.scaling, table));
  if (r.renderApi) out.push('', ...renderRenderApi(r.renderApi, table));
  if (r.mp4Reader) {
    out.push('', ...renderMp4Reader(r.mp4Reader, table));
    out.push(...targetLines(r, 'mp4 reader'));
  }
  if (r.targets.length > 0) {
    out.push('', 'Targets');
    out.push(
      table(
        ['figure', 'value', 'target', 'result'],
        r.targets.map((t) => [t.name, `${t.value}${t.unit ? ` ${t.unit}` : ''}`, `${t.comparison} ${t.threshold}${t.unit ? ` ${t.unit}` : ''}`, t.pass ? 'PASS' : 'MISS']),
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
  const scaleRepeat = countEnv('BENCH_UPLOAD_SCALE', 4);
  const probeRuns = intEnv('BENCH_PROBE_RUNS', 5);
  const waveformRuns = intEnv('BENCH_WAVEFORM_RUNS', 3);
  const transcriptClients = intEnv('BENCH_TRANSCRIPT_CLIENTS', 50);
  const transcriptPatches = intEnv('BENCH_TRANSCRIPT_PATCHES', 1000);
  const transcriptGets = intEnv('BENCH_TRANSCRIPT_GETS', 20);
  const thinkMs = countEnv('BENCH_TRANSCRIPT_THINK_MS', 1000);
  const jobCount = intEnv('BENCH_JOBS', 20);
  const exportRuns = intEnv('BENCH_EXPORT_RUNS', 3);
  const exportChunksMiB = chunkListEnv('BENCH_EXPORT_CHUNKS_MIB', '1,32');
  const exportScale = countEnv('BENCH_EXPORT_SCALE', 4);
  const identityCalls = intEnv('BENCH_IDENTITY_CALLS', 2000);
  const identityRequests = intEnv('BENCH_IDENTITY_REQUESTS', 200);
  const vttRuns = intEnv('BENCH_VTT_RUNS', 5);
  const silenceRuns = intEnv('BENCH_SILENCE_RUNS', 3);
  const silenceLongRuns = intEnv('BENCH_SILENCE_LONG_RUNS', 1);
  const keyMomentRuns = intEnv('BENCH_KEYMOMENTS_RUNS', 5);
  const operatorRequests = intEnv('BENCH_OPERATOR_REQUESTS', 100);
  const scalingJobs = intEnv('BENCH_SCALING_JOBS', 20);

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
    targets: [],
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

  /** Runs a section unless BENCH_SKIP_<NAME>=1; a failure is recorded and the next section runs. */
  const section = async (n: number, name: string, run: () => Promise<void>) => {
    const title = name.toLowerCase();
    if (skipped(name)) {
      log(`${n}/${SECTIONS} ${title}: skipped (BENCH_SKIP_${name}=1)`);
      return;
    }
    log(`${n}/${SECTIONS} ${title} ...`);
    try {
      await run();
    } catch (err) {
      checkInterrupted();
      results.errors[title] = (err as Error).message;
      log(`  ${title} FAILED: ${(err as Error).message}`);
    }
  };

  await section(1, 'UPLOAD', async () => {
    const { paths, scaled } = await benchUpload({ s3Endpoint: endpoint, file: large.path, sizeBytes: large.sizeBytes, storage, runs: uploadRuns, scaleRepeat, log });
    const [ours, alt, plain] = paths as [UploadSummary, UploadSummary, UploadSummary];
    const throughputVsPlain = round(ours.medianMiBPerSec / plain.medianMiBPerSec, 2);
    results.upload = {
      runsPerPath: uploadRuns,
      paths,
      ...(scaled ? { scaled } : {}),
      peakRssRatio: round(alt.peakRssMiB / ours.peakRssMiB),
      addedRssRatio: round(alt.addedRssMiB / ours.addedRssMiB),
      throughputRatio: round(ours.medianMiBPerSec / alt.medianMiBPerSec, 2),
      throughputVsPlain,
    };
    results.targets.push(checkTarget('upload: streaming throughput / plain S3 put', throughputVsPlain, '>=', 0.8, 'x'));
  });

  await section(2, 'PROBE', async () => {
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
  });

  await section(3, 'WAVEFORM', async () => {
    const long = await ensureMedia(LONG, log);
    const media = await benchWaveform({ media: [large, long], runs: waveformRuns, log });
    results.waveform = { runsPerPath: waveformRuns, peaksPerSecond: WAVEFORM_STORED_PEAKS_PER_SECOND, media };
    for (const m of media) {
      const ours = m.paths.find((p) => p.mode === 'ours')!;
      const length = m.durationSec < 120 ? `${Math.round(m.durationSec)} s` : `${Math.round(m.durationSec / 60)} min`;
      results.targets.push(checkTarget(`waveform: computePeaks, ${length} media`, ours.medianRealtime, '>=', 300, 'x realtime'));
    }
  });

  await section(4, 'TRANSCRIPT', async () => {
    const t = await benchTranscript({
      s3Endpoint: endpoint,
      bigWords: 30_000,
      clientWords: 3_000,
      clients: transcriptClients,
      patches: transcriptPatches,
      gets: transcriptGets,
      thinkMs,
      log,
    });
    results.transcript = t;
    const ours = t.paths.find((p) => p.path === 'ours')!;
    results.targets.push(checkTarget(`transcript: GET ${t.bigWords} words, p50`, ours.get.p50Ms, '<', 100, 'ms'));
    results.targets.push(checkTarget(`transcript: GET ${t.bigWords} words, p95`, ours.get.p95Ms, '<', 100, 'ms'));
    if (ours.patchPaced) results.targets.push(checkTarget(`transcript: PATCH p95, ${t.clients} clients paced (${t.thinkMs} ms)`, ours.patchPaced.p95Ms, '<', 30, 'ms'));
    results.targets.push(checkTarget(`transcript: PATCH p95, ${t.clients} clients back to back`, ours.patchClosed.p95Ms, '<', 30, 'ms'));
  });

  await section(5, 'JOBS', async () => {
    const { summaries, startupSec } = await benchJobs({ s3Endpoint: endpoint, tinyMedia: tiny.path, jobs: jobCount, log });
    results.jobs = { jobsPerMode: jobCount, mediaConcurrency: Number(process.env['MEDIA_CONCURRENCY'] ?? 1), stackStartupSec: startupSec, modes: summaries };
  });

  await section(6, 'RENDER', async () => {
    const source = await ensureRenderSource(log);
    log(`  source ready: ${relative(ROOT, source.path)} (${round(source.sizeBytes / MB)} MiB)${source.generatedSec ? `, generated in ${round(source.generatedSec)} s` : ', cached'}`);
    const x = await benchRender({ source, verify: process.env['BENCH_RENDER_VERIFY'] === '1', log });
    results.render = x;
    results.targets.push(checkTarget(`render: cuts, ${x.cuts.removed.length} cuts, full re-encode time / ours`, x.cuts.speedup, '>=', 10, 'x'));
    results.targets.push(checkTarget(`render: mutes, ${x.mutes.ranges.length} mutes, ours / audio-only encode time`, x.mutes.ratio, '<', 1.5, 'x'));
    results.targets.push(checkTarget(`render: clip, ${x.clip.durationSec} s ${x.clip.ratio} at ${x.clip.width}x${x.clip.height}`, x.clip.realtime, '>=', 2, 'x realtime'));
    results.targets.push(checkTarget(`render: clip zoomed and panned, plain crop,scale command time / ours`, x.clip.zoomed.speedupVsPlain, '>=', 1, 'x'));
  });

  await section(9, 'EXPORT', async () => {
    const x = await benchExportUpload({
      s3Endpoint: endpoint,
      storage,
      file: large.path,
      sizeBytes: large.sizeBytes,
      runs: exportRuns,
      compareChunkMiB: exportChunksMiB,
      scaleRepeat: exportScale,
      log,
    });
    results.exportUpload = x;
    const ours = x.paths[0]!;
    // bounded by the garbage collector's working set, not the object: see docs/BENCHMARKS.md, section 9
    results.targets.push(checkTarget(`export: ours (${ours.chunkMiB} MiB chunks), peak RSS added, ${x.sizeMiB} MiB object`, ours.addedRssMiB, '<', 128, 'MiB'));
    if (x.scaled) results.targets.push(checkTarget(`export: ours, peak RSS added, ${x.scaled.sizeMiB} MiB object`, x.scaled.addedRssMiB, '<', 128, 'MiB'));
    results.targets.push(checkTarget('export: ours throughput / buffered single PUT', x.throughputRatio, '>=', 0.5, 'x'));
  });

  await section(10, 'IDENTITY', async () => {
    const x = await benchIdentity({ s3Endpoint: endpoint, words: 3_000, requests: identityRequests, calls: identityCalls, log });
    results.identity = x;
    for (const k of x.kinds) results.targets.push(checkTarget(`identity: guard, ${k.kind} session token, p95`, round(k.guard.p95Us / 1000, 3), '<', 1, 'ms'));
  });

  await section(11, 'VTT', async () => {
    const x = await benchVttParse({ runs: vttRuns, log });
    results.vttParse = x;
    for (const c of x.cases.filter((k) => (VTT_PATHOLOGICAL as readonly string[]).includes(k.id))) {
      const ours = c.paths.find((p) => p.path === 'ours')!;
      if (ours.error) throw new Error(`parseVttDocument failed on ${c.label}: ${ours.error}`);
      results.targets.push(checkTarget(`vtt: parseVttDocument, ${c.label}, median`, ours.medianMs, '<', 1000, 'ms'));
    }
  });

  await section(12, 'SILENCE', async () => {
    const x = await benchSilence({ runs: silenceRuns, longRuns: silenceLongRuns, log });
    results.silence = x;
    for (const m of x.media) {
      const ours = m.paths.find((p) => p.path === 'ours')!;
      const length = m.durationSec < 3600 ? `${Math.round(m.durationSec / 60)} min` : `${Math.round(m.durationSec / 3600)} h`;
      results.targets.push(checkTarget(`silence: detection (decode + analysis) per 10 min of audio, ${length} talk`, ours.per10MinSec, '<', 1, 's'));
    }
  });

  await section(13, 'KEYMOMENTS', async () => {
    const x = await benchKeyMoments({ runs: keyMomentRuns, log });
    x.scenes = await benchScenes({ runs: 2, log });
    results.keyMoments = x;
    results.targets.push(checkTarget(`keymoments: findKeyMoments, ${x.words} words, median`, x.ours.medianMs, '<', 2000, 'ms'));
  });

  await section(15, 'OPERATOR', async () => {
    const x = await benchOperator({ s3Endpoint: endpoint, requests: operatorRequests, log });
    results.operator = x;
    results.targets.push(checkTarget(`operator: GET /api/analytics/videos, ${x.videos} videos, p95`, x.listAll.p95Ms, '<', 100, 'ms'));
    results.targets.push(checkTarget('operator: GET /api/metrics, p95', x.metrics.p95Ms, '<', 200, 'ms'));
  });

  await section(16, 'SCALING', async () => {
    results.scaling = await benchScaling({ s3Endpoint: endpoint, jobs: scalingJobs, workerCounts: [1, 2, 4], cores: cpus().length, log });
  });

  await section(17, 'RENDERAPI', async () => {
    const x = await benchRenderApi({ s3Endpoint: endpoint, log, long: process.env['BENCH_RENDER_LONG'] !== '0' });
    results.renderApi = x;
    const [cuts, more, mutes] = x.renders;
    results.targets.push(checkTarget('render API: 20 cuts, POST to completed (10-min 720p noisy)', cuts!.seconds, '<=', 12, 's'));
    results.targets.push(checkTarget('render API: 20 cuts, full re-encode time / ours', x.speedup, '>=', 10, 'x'));
    results.targets.push(checkTarget('render API: one more cut, POST to completed', more!.seconds, '<=', 5, 's'));
    results.targets.push(checkTarget('render API: 20 mutes on the edited video, POST to completed', mutes!.seconds, '<=', 5, 's'));
    results.targets.push(checkTarget('render API: 60 s 9:16 clip at the renderer, ours / the plain crop,scale command', x.clip.ratio, '<=', 0.8, 'x'));
  });

  await section(18, 'MP4READER', async () => {
    const x = await benchMp4Reader({ runs: intEnv('BENCH_MP4_RUNS', 5), log });
    results.mp4Reader = x;
    results.targets.push(checkTarget(`mp4 reader: longest event-loop hold of the movie check, ${x.file.minutes}-minute file`, x.paths[0]!.maxLoopHoldMs, '<', 250, 'ms'));
    for (const c of x.crafted) results.targets.push(checkTarget(`mp4 reader: ${c.label} refused, ms`, c.answer === 'accepted' ? Number.POSITIVE_INFINITY : c.ms, '<', 5000, 'ms'));
  });

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
