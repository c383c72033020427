import fc from 'fast-check';
import {
  MediaProbeError,
  ProgressParser,
  TailBuffer,
  buildFfmpegArgs,
  buildFfprobeArgs,
  mapFfprobeJson,
  mediaInput,
  parseClock,
  parseProgressBlock,
  parseRational,
  probeFailureReason,
  redactUrls,
  toFfmpegInput,
  unpinnedInputs,
  unplayableReason,
  workFileInput,
  type FfmpegProgress,
  type FfprobeJson,
} from '@wordcut/ffmpeg';
import { probeResultSchema } from '@wordcut/contracts';

const GLOBAL = ['-hide_banner', '-nostdin', '-nostats', '-progress', 'pipe:1', '-loglevel', 'warning', '-y'];

describe('buildFfmpegArgs', () => {
  it('pinned inputs: global flags, then each input with its own -f, format and protocol whitelists', () => {
    const args = buildFfmpegArgs(['-map', '0:v', '-f', 'mp4', 'file:out.mp4'], {
      inputs: [mediaInput('https://s3/b/k.mp4?X-Amz-Signature=1'), workFileInput('/w/audio.aac', 'aac')],
    });
    expect(args).toEqual([
      ...GLOBAL,
      '-f', 'mov', '-format_whitelist', 'mov', '-enable_drefs', '0', '-protocol_whitelist', 'http,https,tcp,tls', '-i', 'https://s3/b/k.mp4?X-Amz-Signature=1',
      '-f', 'aac', '-format_whitelist', 'aac', '-protocol_whitelist', 'file', '-i', 'file:/w/audio.aac',
      '-map', '0:v', '-f', 'mp4', 'file:out.mp4',
    ]);
    expect(unpinnedInputs(args)).toEqual([]);
  });

  it('with pinned inputs, args may not add inputs or loosen whitelists', () => {
    const inputs = [mediaInput('/w/a.mp4')];
    for (const flag of ['-i', '-protocol_whitelist', '-format_whitelist', '-enable_drefs', '-safe']) {
      expect(() => buildFfmpegArgs([flag, 'x', 'out.mp4'], { inputs })).toThrow(/pinned descriptors only/);
    }
    expect(() => buildFfmpegArgs(['out.mp4'], { inputs: [] })).toThrow(/at least one input/);
  });

  it('raw -i (local tools only) is limited to the file protocol; caller flags are respected', () => {
    expect(buildFfmpegArgs(['-ss', '3', '-i', 'in.mp4', '-map', '0:v', 'out.mp4'])).toEqual([
      ...GLOBAL, '-ss', '3', '-protocol_whitelist', 'file', '-i', 'in.mp4', '-map', '0:v', 'out.mp4',
    ]);
    const args = buildFfmpegArgs(['-v', 'error', '-n', '-protocol_whitelist', 'pipe', '-i', 'pipe:0', '-i', 'b.mp4', 'o.mkv']);
    expect(args).toEqual([
      '-hide_banner', '-nostdin', '-nostats', '-progress', 'pipe:1',
      '-v', 'error', '-n', '-protocol_whitelist', 'pipe', '-i', 'pipe:0',
      '-protocol_whitelist', 'file', '-i', 'b.mp4', 'o.mkv',
    ]);
    expect(buildFfmpegArgs(['-i', 'a', 'b'], { overwrite: false, logLevel: 'info' })).not.toContain('-y');
    expect(buildFfmpegArgs(['-i', 'a', 'b'], { logLevel: 'info' })).toContain('info');
  });

  it('rejects unsafe arguments', () => {
    expect(() => buildFfmpegArgs(['-i', 'a\0b'])).toThrow(/NUL/);
    expect(() => buildFfmpegArgs(['-i', 3 as unknown as string])).toThrow(/not a string/);
  });

  it('never lets a raw input escape a whitelist, nor reach the network (property)', () => {
    const token = fc.oneof(fc.constantFrom('-i', '-ss', '1', 'x.mp4', 'https://h/x.mp4', '-map', '0', '-c', 'copy', '-f', 'null', '-'));
    fc.assert(
      fc.property(fc.array(token, { maxLength: 30 }), (userArgs) => {
        const out = buildFfmpegArgs(userArgs);
        out.forEach((a, i) => {
          if (a === '-i') expect(out.slice(i - 2, i)).toEqual(['-protocol_whitelist', 'file']);
        });
        expect(out.filter((a) => a === '-i')).toHaveLength(userArgs.filter((a) => a === '-i').length);
      }),
    );
  });
});

describe('buildFfprobeArgs / inputs', () => {
  it('a local path: JSON format+streams, the mov demuxer, file protocol only, a file: input', () => {
    expect(buildFfprobeArgs('/data/a:b.mp4')).toEqual([
      '-hide_banner', '-v', 'error', '-print_format', 'json', '-show_format', '-show_streams',
      '-f', 'mov', '-format_whitelist', 'mov', '-enable_drefs', '0', '-protocol_whitelist', 'file', '-i', 'file:/data/a:b.mp4',
    ]);
  });

  it('a presigned URL: the mov demuxer, network protocols only (no file, crypto, concat, subfile, data)', () => {
    const args = buildFfprobeArgs('http://s3:9000/b/k?X-Amz-Signature=1');
    expect(args.slice(-10)).toEqual([
      '-f', 'mov', '-format_whitelist', 'mov', '-enable_drefs', '0', '-protocol_whitelist', 'http,https,tcp,tls', '-i', 'http://s3:9000/b/k?X-Amz-Signature=1',
    ]);
    expect(unpinnedInputs(args)).toEqual([]);
  });

  it('toFfmpegInput keeps URLs and protects odd local names', () => {
    expect(['https://a/b.mp4', 'file:/x.mp4', '-rf.mp4', 'concat:a|b'].map((p) => toFfmpegInput(p))).toEqual(['https://a/b.mp4', 'file:/x.mp4', 'file:-rf.mp4', 'file:concat:a|b']);
  });

  it('redactUrls strips query strings (presigned signatures)', () => {
    expect(redactUrls('http://h:1/b/k.mp4?X-Amz-Signature=s3cr3t&X-Amz-Credential=a: Server returned 403')).toBe(
      'http://h:1/b/k.mp4?<redacted>: Server returned 403',
    );
    expect(redactUrls('no urls here')).toBe('no urls here');
  });
});

describe('progress parsing', () => {
  const sample = [
    'frame=1', 'fps=0.00', 'stream_0_0_q=0.0', 'bitrate=N/A', 'total_size=48', 'out_time_us=0', 'out_time_ms=0',
    'out_time=00:00:00.000000', 'dup_frames=0', 'drop_frames=0', 'speed=   0x', 'progress=continue',
    'frame=25', 'fps=24.50', 'stream_0_0_q=28.0', 'bitrate= 349.2kbits/s', 'total_size=44032', 'out_time_us=1000000',
    'out_time_ms=1000000', 'out_time=00:00:01.000000', 'dup_frames=0', 'drop_frames=0', 'speed=2.01x', 'progress=continue',
    'frame=50', 'fps=0.00', 'stream_0_0_q=-1.0', 'bitrate= 349.2kbits/s', 'total_size=88175', 'out_time_us=2020136',
    'out_time_ms=2020136', 'out_time=00:00:02.020136', 'dup_frames=0', 'drop_frames=0', 'speed=12.1x', 'progress=end',
  ].join('\n') + '\n';

  it('parses ffmpeg -progress blocks into reports', () => {
    const seen: FfmpegProgress[] = [];
    const p = new ProgressParser((r) => seen.push(r), 4);
    p.push(sample);
    expect(seen).toHaveLength(3);
    expect(seen[0]).toMatchObject({ outTimeSec: 0, frame: 1, fps: 0, speed: 0, percent: 0, done: false, totalSizeBytes: 48 });
    expect(seen[1]).toMatchObject({ outTimeSec: 1, frame: 25, fps: 24.5, speed: 2.01, percent: 25, done: false });
    expect(seen[2]).toMatchObject({ outTimeSec: 2.020136, frame: 50, speed: 12.1, percent: 100, done: true });
    expect(seen[2]!.raw['bitrate']).toBe('349.2kbits/s');
  });

  it('gives the same reports however stdout is chunked (property)', () => {
    const whole: FfmpegProgress[] = [];
    new ProgressParser((r) => whole.push(r)).push(sample);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: sample.length }), { maxLength: 20 }), (cuts) => {
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        const seen: FfmpegProgress[] = [];
        const p = new ProgressParser((r) => seen.push(r));
        let prev = 0;
        for (const c of [...points, sample.length]) {
          p.push(Buffer.from(sample.slice(prev, c)));
          prev = c;
        }
        expect(seen).toEqual(whole);
      }),
    );
  });

  it('handles N/A, negative times, CRLF and unknown duration', () => {
    const r = parseProgressBlock({ out_time_us: 'N/A', out_time_ms: 'N/A', out_time: '-00:00:00.040000', speed: 'N/A', progress: 'continue' }, 10);
    expect(r).toMatchObject({ outTimeSec: 0, speed: null, percent: 0, frame: null, fps: null });
    const noDuration = parseProgressBlock({ out_time_us: '5000000', progress: 'end' });
    expect(noDuration).toMatchObject({ outTimeSec: 5, percent: null, done: true });
    expect(parseProgressBlock({ out_time_us: '50000000', progress: 'continue' }, 10).percent).toBe(100);
    const seen: FfmpegProgress[] = [];
    new ProgressParser((x) => seen.push(x), 2).push('out_time=00:00:01.000000\r\nprogress=continue\r\n');
    expect(seen[0]).toMatchObject({ outTimeSec: 1, percent: 50 });
    expect(parseClock('01:02:03.5')).toBe(3723.5);
    expect(parseClock('garbage')).toBeNull();
  });
});

describe('TailBuffer', () => {
  it('keeps exactly the last N bytes', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 50 }), { maxLength: 40 }), fc.integer({ min: 1, max: 100 }), (parts, limit) => {
        const t = new TailBuffer(limit);
        parts.forEach((s) => t.push(Buffer.from(s, 'latin1')));
        const all = Buffer.from(parts.join(''), 'latin1');
        expect(Buffer.from(t.toString(), 'utf8').length).toBeLessThanOrEqual(Math.max(limit * 3, 0));
        // Compare bytes directly (latin1 chunks may not be valid UTF-8).
        const kept = (t as unknown as { chunks: Buffer[] }).chunks;
        expect(Buffer.concat(kept).equals(all.subarray(Math.max(0, all.length - limit)))).toBe(true);
      }),
    );
  });
});

const ffprobeMp4: FfprobeJson = {
  streams: [
    {
      index: 0, codec_name: 'h264', codec_type: 'video', width: 1280, height: 720,
      r_frame_rate: '30000/1001', avg_frame_rate: '30000/1001', duration: '30.030000',
      disposition: { default: 1, attached_pic: 0 },
    },
    {
      index: 1, codec_name: 'aac', codec_type: 'audio', sample_rate: '44100', channels: 1,
      r_frame_rate: '0/0', avg_frame_rate: '0/0', duration: '30.000000',
    },
    { index: 2, codec_type: 'data', r_frame_rate: '0/0' },
  ],
  format: { format_name: 'mov,mp4,m4a,3gp,3g2,mj2', duration: '30.030000', size: '2097152', bit_rate: '558000' },
};

describe('mapFfprobeJson', () => {
  it('maps ffprobe JSON to the ProbeResult contract', () => {
    const r = mapFfprobeJson(ffprobeMp4);
    expect(probeResultSchema.safeParse(r).success).toBe(true);
    expect(r).toEqual({
      formatName: 'mov,mp4,m4a,3gp,3g2,mj2',
      durationSec: 30.03,
      sizeBytes: 2097152,
      bitRate: 558000,
      streams: [
        { index: 0, codecType: 'video', codecName: 'h264', width: 1280, height: 720, frameRate: 30000 / 1001, sampleRate: null, channels: null, durationSec: 30.03, pixFmt: null, rotation: 0 },
        { index: 1, codecType: 'audio', codecName: 'aac', width: null, height: null, frameRate: null, sampleRate: 44100, channels: 1, durationSec: 30 },
        { index: 2, codecType: 'data', codecName: null, width: null, height: null, frameRate: null, sampleRate: null, channels: null, durationSec: null },
      ],
    });
  });

  it('uses nulls where ffprobe has N/A or nothing', () => {
    const r = mapFfprobeJson({ format: { format_name: 'matroska,webm', duration: 'N/A' }, streams: [{ codec_type: 'video', r_frame_rate: '0/0', avg_frame_rate: '25/1' }] });
    expect(r).toMatchObject({ durationSec: null, sizeBytes: null, bitRate: null });
    expect(r.streams[0]).toMatchObject({ index: 0, frameRate: 25, width: null, codecName: null });
  });

  it('parses rationals', () => {
    expect(parseRational('30000/1001')).toBeCloseTo(29.97, 2);
    expect(parseRational('25/1')).toBe(25);
    expect(parseRational('24')).toBe(24);
    expect(parseRational('0/0')).toBeNull();
    expect(parseRational('1/0')).toBeNull();
    expect(parseRational(undefined)).toBeNull();
    expect(parseRational('abc')).toBeNull();
  });
});

describe('playability and failure reasons', () => {
  it('accepts audio or moving video, rejects text, stills and subtitle-only inputs', () => {
    expect(unplayableReason(ffprobeMp4)).toBeNull();
    expect(unplayableReason({ format: { format_name: 'mp3' }, streams: [{ codec_type: 'audio' }, { codec_type: 'video', disposition: { attached_pic: 1 } }] })).toBeNull();
    expect(unplayableReason({ format: { format_name: 'gif' }, streams: [{ codec_type: 'video' }] })).toBeNull();
    expect(unplayableReason({ format: { format_name: 'tty' }, streams: [{ codec_type: 'video' }] })).toMatch(/text file/);
    expect(unplayableReason({ format: { format_name: 'png_pipe' }, streams: [{ codec_type: 'video' }] })).toMatch(/still image/);
    expect(unplayableReason({ format: { format_name: 'webvtt' }, streams: [{ codec_type: 'subtitle' }] })).toBe(
      'no audio or video stream (format webvtt, streams: subtitle)',
    );
    expect(unplayableReason({ format: { format_name: 'mov' }, streams: [] })).toMatch(/no streams/);
  });

  it('extracts a one-line reason and classifies it', () => {
    const input = 'file:/tmp/notes.txt';
    expect(probeFailureReason(`${input}: Invalid data found when processing input\n`, input)).toEqual({
      code: 'NOT_MEDIA',
      reason: 'Invalid data found when processing input',
    });
    expect(
      probeFailureReason('[mov,mp4,m4a,3gp,3g2,mj2 @ 0x5562] moov atom not found\nfile:/x.mp4: Invalid data found when processing input\n', 'file:/x.mp4'),
    ).toEqual({ code: 'NOT_MEDIA', reason: 'moov atom not found; Invalid data found when processing input' });
    const url = 'http://s3:9000/b/k?X-Amz-Signature=abc';
    const r = probeFailureReason(`[http @ 0x1] HTTP error 403 Forbidden\n${url}: Server returned 403 Forbidden (access denied)\n`, url);
    expect(r.code).toBe('UNREADABLE');
    expect(r.reason).not.toContain('abc');
    expect(probeFailureReason('file:/nope.mp4: No such file or directory\n', 'file:/nope.mp4')).toEqual({
      code: 'UNREADABLE',
      reason: 'No such file or directory',
    });
  });

  it('MediaProbeError words the message by code', () => {
    expect(new MediaProbeError('NOT_MEDIA', 'Invalid data', 'x').message).toBe('not a playable media file: Invalid data');
    expect(new MediaProbeError('UNREADABLE', 'No such file', 'x').message).toBe('cannot read media input: No such file');
  });
});
