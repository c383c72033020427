/**
 * WordCut's benchmark: `npx tsx tools/bench/run.ts` (`npm run bench`). It guards the regression targets
 * that are still live (sections 1-3 upload, probe, waveform; 6 renders; 11 WebVTT; 12 pauses; 13 key
 * moments; 17 renders through the API; 18 our MP4 reader; 19 variable frame rates; 20 exports for other editors), each on real media made by ffmpeg and against
 * the obvious alternative in the same run; 21 scores key moments against hand labels (tools/keymoments-eval,
 * before and now). docs/BENCHMARKS.md says what each measures, lists the
 * environment knobs (BENCH_*_RUNS, BENCH_SKIP_<SECTION>=1) and holds the recorded figures; the gaps are
 * sections whose decision is made, kept in git tag bench-archive-2026-12. Prints a table with the targets
 * marked and writes the same figures to .data/bench/last.json. Needs ffmpeg and the built services;
 * section 17 also Postgres and NATS (as the integration tests do).
 */
import { FfmpegMediaTools } from '@wordcut/ffmpeg';
import { S3ObjectStorage } from '@wordcut/storage';
import { createReadStream, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join, relative } from 'node:path';
import { WAVEFORM_STORED_PEAKS_PER_SECOND } from '@wordcut/contracts';
import { BENCH_DIR, BUCKET, MB, ROOT, S3_CREDENTIALS, checkInterrupted, checkTarget, cleanupAll, countEnv, forkTs, intEnv } from './common';
import { interrupt, isInterrupted, onCleanup, round, type TargetCheck } from './common';
import { LARGE, LONG, ensureMedia, type BenchMedia } from './media';
import { benchProbe, type ProbeSummary } from './probe';
import { benchRender, ensureRenderSource, type RenderPathRun, type RenderResults } from './render';
import { plainTable as table, targetLines as linesOf, targetsTable } from './report';
import { benchUpload, type ScaledUploadRun, type UploadSummary } from './upload';
import { VTT_PATHOLOGICAL, benchVttParse, renderVttParse, type VttParseResults } from './vtt-parse';
import { benchMp4Reader, renderMp4Reader, type Mp4ReaderResults } from './mp4-reader';
import { benchWaveform, type WaveformMediaResult } from './waveform';
import { benchSilence, renderSilence, type SilenceResults } from './silence';
import { benchKeyMoments, renderKeyMoments, type KeyMomentsResults } from './keymoments';
import { benchScenes } from './scenes';
import { benchRenderApi, renderRenderApi, type RenderApiResults } from './render-api';
import { benchVfrRender, renderVfrRender, type VfrRenderResults } from './render-vfr';
import { benchExports, renderExports, type ExportResults } from './exports';
import { benchKeyMomentsEval, renderKeyMomentsEval, type KeyMomentsEvalResults } from './keymoments-eval';

/** The highest section number, for the progress lines (the archived numbers are gaps). */
const SECTIONS = 21;
const skipped = (section: string): boolean => process.env[`BENCH_SKIP_${section}`] === '1';

const log = (line: string) => process.stdout.write(`${line}\n`);

interface Results {
  startedAt: string;
  machine: { cpus: number; cpuModel: string; memoryGiB: number; node: string; ffmpeg: string; platform: string; loadAverageAtStart: number[]; loadAverageAtEnd: number[] };
  /** the 246 MiB file of sections 1-3, made (or found cached) when the first of them runs */
  media?: { file: string; sizeBytes: number; sizeMiB: number; description: string; generatedSec: number };
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
  render?: RenderResults;
  vttParse?: VttParseResults;
  silence?: SilenceResults;
  keyMoments?: KeyMomentsResults;
  renderApi?: RenderApiResults;
  mp4Reader?: Mp4ReaderResults;
  vfrRender?: VfrRenderResults;
  exports?: ExportResults;
  keyMomentsEval?: KeyMomentsEvalResults;
  /** every target with its figure and whether it was met */
  targets: TargetCheck[];
  errors: Record<string, string>;
  totalSec: number;
}

const targetLines = (r: Results, prefix: string): string[] => linesOf(r.targets, prefix);

function render(r: Results): string {
  const out: string[] = [];
  out.push(`WordCut benchmark, ${r.startedAt}`);
  out.push(`machine: ${r.machine.cpus} CPU (${r.machine.cpuModel}), ${r.machine.memoryGiB} GiB, Node ${r.machine.node}, ${r.machine.ffmpeg}`);
  out.push(`load:    1/5/15-minute load average ${r.machine.loadAverageAtStart.join(' ')} at start, ${r.machine.loadAverageAtEnd.join(' ')} at the end`);
  if (r.media) out.push(`media:   ${r.media.file}, ${r.media.sizeMiB} MiB (${r.media.description})`);
  if (r.upload) {
    const u = r.upload;
    out.push('', `1. Upload ${r.media?.sizeMiB} MiB into S3: streaming multipart POST -> server process -> s3rver (${u.runsPerPath} runs per path)`);
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
    out.push('', `2. Probe the ${r.media?.sizeMiB} MiB object in S3 (${p.runsPerPath} runs per path, through a byte-counting proxy)`);
    const rows = p.paths.map((x) => [x.label, x.medianMs, `${Math.round(x.minMs)}-${Math.round(x.maxMs)}`, x.medianMiBFromS3, x.medianRequests]);
    out.push(table(['path', 'median ms', 'min-max ms', 'MiB from S3', 'S3 requests'], rows));
    out.push(`  => presigned URL: ${p.speedup}x faster, ${p.bytesRatio}x fewer bytes from S3`);
  }
  if (r.waveform) {
    const w = r.waveform;
    out.push('', `3. Waveform peaks (${w.peaksPerSecond} peaks/s, local file, ${w.runsPerPath} runs per path; x realtime = media duration / wall time)`);
    const rows = w.media.flatMap((m) => m.paths.map((p) => [`${m.media} (${m.durationSec} s)`, p.label, p.decodedAt, p.medianSeconds, p.medianRealtime, p.peaks]));
    out.push(table(['media', 'path', 'decodes to', 'median s', 'x realtime', 'peaks'], rows));
    for (const m of w.media) out.push(`  => ${m.media}: the paths' peaks differ by ${m.meanAbsDiff} of 255 on average (resampling, mono mix)`);
    out.push(...targetLines(r, 'waveform'));
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
  if (r.vttParse) out.push('', ...renderVttParse(r.vttParse), ...targetLines(r, 'vtt'));
  if (r.silence) out.push('', ...renderSilence(r.silence), ...targetLines(r, 'silence:'));
  if (r.keyMoments) out.push('', ...renderKeyMoments(r.keyMoments), ...targetLines(r, 'keymoments'));
  if (r.renderApi) out.push('', ...renderRenderApi(r.renderApi));
  if (r.mp4Reader) out.push('', ...renderMp4Reader(r.mp4Reader), ...targetLines(r, 'mp4 reader'));
  if (r.vfrRender) out.push('', ...renderVfrRender(r.vfrRender), ...targetLines(r, 'vfr'));
  if (r.exports) out.push('', ...renderExports(r.exports), ...targetLines(r, 'exports'));
  if (r.keyMomentsEval) out.push('', ...renderKeyMomentsEval(r.keyMomentsEval));
  if (r.targets.length > 0) out.push('', 'Targets', targetsTable(r.targets));
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
  const vttRuns = intEnv('BENCH_VTT_RUNS', 5);
  const silenceRuns = intEnv('BENCH_SILENCE_RUNS', 3);
  const silenceLongRuns = intEnv('BENCH_SILENCE_LONG_RUNS', 1);
  const keyMomentRuns = intEnv('BENCH_KEYMOMENTS_RUNS', 5);

  const tools = new FfmpegMediaTools();
  const versions = await tools.versions();

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

  let large: BenchMedia | undefined;
  const largeMedia = async (): Promise<BenchMedia> => {
    if (large) return large;
    large = await ensureMedia(LARGE, log);
    log(`  media ready: ${relative(ROOT, large.path)} (${round(large.sizeBytes / MB)} MiB)${large.generatedSec ? `, generated in ${round(large.generatedSec)} s` : ', cached'}`);
    results.media = { file: relative(ROOT, large.path), sizeBytes: large.sizeBytes, sizeMiB: round(large.sizeBytes / MB), description: large.description, generatedSec: round(large.generatedSec) };
    return large;
  };

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
    const large = await largeMedia();
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
    await storage.upload(key, createReadStream((await largeMedia()).path), { contentType: 'video/mp4' });
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
    const media = await benchWaveform({ media: [await largeMedia(), long], runs: waveformRuns, log });
    results.waveform = { runsPerPath: waveformRuns, peaksPerSecond: WAVEFORM_STORED_PEAKS_PER_SECOND, media };
    for (const m of media) {
      const ours = m.paths.find((p) => p.mode === 'ours')!;
      const length = m.durationSec < 120 ? `${Math.round(m.durationSec)} s` : `${Math.round(m.durationSec / 60)} min`;
      results.targets.push(checkTarget(`waveform: computePeaks, ${length} media`, ours.medianRealtime, '>=', 300, 'x realtime'));
    }
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

  await section(19, 'VFR', async () => {
    const x = await benchVfrRender({ log });
    results.vfrRender = x;
    for (const r of x.renders) results.targets.push(checkTarget(`vfr: ${r.kind.toUpperCase()} source takes the smart path`, r.path === 'smart' ? 1 : 0, '>=', 1, ''));
    results.targets.push(checkTarget(`vfr: ${x.minutes}-minute 1080p VFR, 20 cuts, time / the same cuts of a constant-rate file`, x.ratio, '<=', 2, 'x'));
  });

  await section(20, 'EXPORTS', async () => {
    const x = await benchExports({ runs: intEnv('BENCH_EXPORT_RUNS', 5), log });
    results.exports = x;
    for (const c of x.cases.filter((k) => !k.format.startsWith('alternative') && !k.format.startsWith('timeline'))) {
      results.targets.push(checkTarget(`exports: ${c.format} of a 3-hour edit with 500 cuts and 25,000 words`, c.medianMs, '<', 1000, 'ms'));
    }
  });

  await section(21, 'KEYMOMENTSEVAL', async () => {
    results.keyMomentsEval = await benchKeyMomentsEval({ log, writeBaseline: process.env['BENCH_KEYMOMENTS_EVAL_WRITE_BASELINE'] === '1' });
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
