import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  assertPinnedInput,
  buildFfmpegArgs,
  inputArgs,
  mediaInput,
  pcmInput,
  unpinnedInputs,
  withInputOptions,
  workFileInput,
  type FfmpegInput,
} from '@wordcut/ffmpeg';

/** The -f / -format_whitelist / -protocol_whitelist values each -i of an argv gets. */
function pinsOf(argv: readonly string[]): Array<{ url: string; f: string; formats: string; protocols: string }> {
  const out: Array<{ url: string; f: string; formats: string; protocols: string }> = [];
  let since = 0;
  argv.forEach((a, i) => {
    if (a !== '-i') return;
    const own = argv.slice(since, i);
    const value = (flag: string) => own[own.lastIndexOf(flag) + 1] ?? '';
    out.push({ url: argv[i + 1]!, f: value('-f'), formats: value('-format_whitelist'), protocols: value('-protocol_whitelist') });
    since = i + 2;
  });
  return out;
}

describe('input descriptors', () => {
  it('untrusted media is read with the MP4/MOV demuxer only, drefs off; protocols follow path vs URL', () => {
    expect(inputArgs(mediaInput('/tmp/x/source'))).toEqual([
      '-f', 'mov', '-format_whitelist', 'mov', '-enable_drefs', '0', '-protocol_whitelist', 'file', '-i', 'file:/tmp/x/source',
    ]);
    const url = 'https://s3.example/b/videos/1/original/2.mp4?X-Amz-Signature=abc';
    expect(inputArgs(mediaInput(url))).toEqual([
      '-f', 'mov', '-format_whitelist', 'mov', '-enable_drefs', '0', '-protocol_whitelist', 'http,https,tcp,tls', '-i', url,
    ]);
    expect(mediaInput('http://127.0.0.1:4568/b/k').protocols).toEqual(['http', 'https', 'tcp', 'tls']);
  });

  it('odd local names stay local files; other schemes are refused', () => {
    expect(mediaInput('clip:1.mp4').url).toBe('file:clip:1.mp4');
    expect(mediaInput('-rf.mp4').url).toBe('file:-rf.mp4');
    expect(mediaInput('concat:a|b').url).toBe('file:concat:a|b');
    expect(mediaInput('file:/w/a.mp4').url).toBe('file:/w/a.mp4');
    for (const bad of ['ftp://h/a.mp4', 'data://x', 'tcp://127.0.0.1:9/', 'rtmp://h/live']) {
      expect(() => mediaInput(bad)).toThrow(/not a local path/);
    }
    expect(() => mediaInput('')).toThrow(/empty/);
  });

  it("the worker's own files: the format it wrote, the file protocol only", () => {
    expect(inputArgs(workFileInput('/w/audio-out.aac', 'aac'))).toEqual(['-f', 'aac', '-format_whitelist', 'aac', '-protocol_whitelist', 'file', '-i', 'file:/w/audio-out.aac']);
    expect(inputArgs(workFileInput('/w/audio-out.m4a', 'mov'))).toEqual([
      '-f', 'mov', '-format_whitelist', 'mov', '-enable_drefs', '0', '-protocol_whitelist', 'file', '-i', 'file:/w/audio-out.m4a',
    ]);
    expect(inputArgs(pcmInput('/w/a.pcm', { sampleRate: 48000, channels: 2 }))).toEqual([
      '-f', 's16le', '-format_whitelist', 's16le', '-ar', '48000', '-ac', '2', '-protocol_whitelist', 'file', '-i', 'file:/w/a.pcm',
    ]);
    expect(() => pcmInput('/w/a.pcm', { sampleRate: 0, channels: 2 })).toThrow(RangeError);
  });

  it('seek options go before the demuxer of their own input', () => {
    expect(inputArgs(withInputOptions(mediaInput('/w/s'), '-ss', '1.5', '-t', '2'))).toEqual([
      '-ss', '1.5', '-t', '2', '-f', 'mov', '-format_whitelist', 'mov', '-enable_drefs', '0', '-protocol_whitelist', 'file', '-i', 'file:/w/s',
    ]);
    for (const flag of ['-f', '-i', '-protocol_whitelist', '-format_whitelist', '-enable_drefs', '-safe']) {
      expect(() => inputArgs(withInputOptions(mediaInput('/w/s'), flag, 'x'))).toThrow(/set by the input descriptor/);
    }
  });

  it('an input without a pinned format or with the wrong protocols is a programming error', () => {
    // @ts-expect-error the format is required by the type
    const noFormat: FfmpegInput = { url: 'file:/w/a', formats: ['mov'], protocols: ['file'], demuxerOptions: [] };
    expect(() => inputArgs(noFormat)).toThrow(/no pinned format/);
    const cast = (over: Partial<FfmpegInput>) => ({ ...mediaInput('/w/a'), ...over }) as FfmpegInput;
    expect(() => assertPinnedInput(cast({ format: 'hls' as never }))).toThrow(/no pinned format/);
    expect(() => assertPinnedInput(cast({ formats: ['mov', 'hls' as never] }))).toThrow(/format whitelist/);
    expect(() => assertPinnedInput(cast({ formats: [] }))).toThrow(/format whitelist/);
    expect(() => assertPinnedInput(cast({ protocols: [] }))).toThrow(/invalid protocols/);
    expect(() => assertPinnedInput(cast({ protocols: ['file', 'crypto' as never] }))).toThrow(/invalid protocols/);
    expect(() => assertPinnedInput(cast({ protocols: ['file', 'http'] }))).toThrow(/file protocol/);
    expect(() => assertPinnedInput({ ...mediaInput('https://h/a'), protocols: ['https', 'tls', 'tcp', 'file'] })).toThrow(/must not use the file protocol/);
    expect(() => assertPinnedInput(cast({ url: 'concat:/a|/b' }))).toThrow(/neither a file: path nor an http/);
  });

  it('unpinnedInputs finds every -i without its own -f, format and protocol whitelists', () => {
    expect(unpinnedInputs(['-i', 'a.mp4', 'out.mp4'])).toEqual([0]);
    expect(unpinnedInputs(['-f', 'mov', '-protocol_whitelist', 'file', '-i', 'a', '-i', 'b'])).toEqual([4, 6]);
    expect(unpinnedInputs([...inputArgs(mediaInput('/a')), ...inputArgs(workFileInput('/b', 'aac')), '-f', 'mp4', 'o'])).toEqual([]);
  });

  it('a multi-input command pins every input on its own (render pieces, joins, re-encodes)', () => {
    const source = mediaInput('/w/source');
    const argv = buildFfmpegArgs(['-map', '0:v:0', '-map', '1:a:0', '-c', 'copy', '-f', 'mp4', 'file:/w/out.mp4'], {
      inputs: [
        withInputOptions(source, '-ss', '1', '-t', '2'),
        withInputOptions(source, '-ss', '5', '-t', '2'),
        workFileInput('/w/piece-00001.mp4', 'mov'),
        workFileInput('/w/audio-out.aac', 'aac'),
        pcmInput('/w/audio-out.pcm', { sampleRate: 44100, channels: 1 }),
      ],
    });
    expect(unpinnedInputs(argv)).toEqual([]);
    expect(pinsOf(argv)).toEqual([
      { url: 'file:/w/source', f: 'mov', formats: 'mov', protocols: 'file' },
      { url: 'file:/w/source', f: 'mov', formats: 'mov', protocols: 'file' },
      { url: 'file:/w/piece-00001.mp4', f: 'mov', formats: 'mov', protocols: 'file' },
      { url: 'file:/w/audio-out.aac', f: 'aac', formats: 'aac', protocols: 'file' },
      { url: 'file:/w/audio-out.pcm', f: 's16le', formats: 's16le', protocols: 'file' },
    ]);
  });
});

describe('every ffmpeg/ffprobe call site passes pinned inputs', () => {
  const ROOT = join(__dirname, '../../..');
  const sources = (dir: string): string[] =>
    readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? (e.name === 'testing' ? [] : sources(join(dir, e.name))) : e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts') ? [join(dir, e.name)] : [],
    );
  // input.ts builds every -i; args.ts keeps the raw-tools path (file protocol only); testing/ is
  // test support (it makes the media the tests read).
  const BUILDERS = new Set(['libs/ffmpeg/src/input.ts', 'libs/ffmpeg/src/args.ts']);

  it.each([...sources('libs/ffmpeg/src'), ...sources('services/media/src')].filter((f) => !BUILDERS.has(f)))('%s writes no raw -i or whitelist', (file) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    expect(text).not.toMatch(/['"]-i['"]/);
    expect(text).not.toMatch(/['"]-(protocol|format)_whitelist['"]/);
    expect(text).not.toMatch(/['"]-safe['"]\s*,\s*['"]0['"]/);
  });
});
