import { buildFfmpegArgs } from './args';
import { mediaInput } from './input';
import { parseFramecrc, sceneChangesCommand, sceneChangesFromThumbnails } from './scenes';

describe('parseFramecrc', () => {
  it('reads each frame time in the listed time base', () => {
    const text = ['#software: Lavf59.27.100', '#tb 0: 1/25', '#media_type 0: video', '0,         75,         75,        1,    28800, 0x3960a8c4', '0,        150,        150,        1,    28800, 0x76cca7ab', ''].join('\n');
    expect(parseFramecrc(text)).toEqual([3, 6]);
  });

  it('ignores other streams, comments and broken lines', () => {
    expect(parseFramecrc('#tb 0: 1001/30000\n1, 5, 5, 1, 10, 0x0\nnot a frame\n0, 30, 30, 1, 10, 0x1\n')).toEqual([1.001]);
    expect(parseFramecrc('')).toEqual([]);
  });
});

describe('sceneChangesFromThumbnails', () => {
  const thumb = (value: number, pixels = 4) => new Uint8Array(pixels).fill(value);
  const join = (...parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((p) => [...p]));

  it('marks a keyframe whose thumbnail differs on average by more than the threshold', () => {
    const thumbs = join(thumb(100), thumb(104), thumb(180), thumb(182), thumb(20));
    expect(sceneChangesFromThumbnails([0, 2, 4, 6, 8], thumbs, 4)).toEqual([4, 8]);
    // gestures: a few pixels change a lot, the mean little
    expect(sceneChangesFromThumbnails([0, 2], join(Uint8Array.from([10, 10, 10, 10]), Uint8Array.from([10, 10, 10, 50])), 4)).toEqual([]);
  });

  it('pairs times and thumbnails only as far as both go', () => {
    expect(sceneChangesFromThumbnails([0, 2, 4], join(thumb(0), thumb(255)), 4)).toEqual([2]);
    expect(sceneChangesFromThumbnails([0], join(thumb(0), thumb(255)), 4)).toEqual([]);
  });
});

describe('sceneChangesCommand', () => {
  it('decodes keyframes only, from a pinned input, into a listing on stdout and thumbnails in a file', () => {
    const command = sceneChangesCommand(mediaInput('https://s3.local/bucket/a.mp4?X-Amz-Signature=x'), '/tmp/w/thumbs.rgb');
    const args = buildFfmpegArgs(command.args, { inputs: command.inputs, logLevel: 'error', progress: false });
    const i = args.indexOf('-i');
    expect(args.slice(0, i)).toEqual(expect.arrayContaining(['-skip_frame', 'nokey', '-f', 'mov', '-protocol_whitelist', 'http,https,tcp,tls']));
    expect(args).toContain('[0:v:0]scale=32:18,format=rgb24,split=2[times][thumbs]');
    expect(args.slice(-3)).toEqual(['-f', 'rawvideo', '/tmp/w/thumbs.rgb']);
    expect(args.join(' ')).toContain('-map [times] -fps_mode passthrough -f framecrc pipe:1');
  });
});
