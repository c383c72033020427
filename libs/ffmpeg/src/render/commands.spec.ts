import { mediaInput } from '../input';
import { ascendingRuns, joinCommand, MAX_PIECES_PER_PROCESS, MAX_REENCODE_INPUTS, pieceBatchCommand, pieceBatches, pieceEncoderArgs, reencodeCommand } from './commands';
import type { VideoTrackInfo } from './media-info';
import type { PlannedPiece } from './plan';

const video = (o: Partial<VideoTrackInfo> = {}): VideoTrackInfo => ({
  codec: 'h264',
  width: 1280,
  height: 720,
  pixFmt: 'yuv420p',
  profile: 'High',
  rotation: 0,
  hasBFrames: 2,
  timeBase: { num: 1, den: 15360 },
  framePts: Array.from({ length: 300 }, (_, i) => i * 512),
  keyframes: [0, 60, 120, 180, 240],
  frameTicks: 512,
  closedGops: true,
  closedEnds: [],
  leading: [0, 0, 0, 0, 0],
  colorRange: 'tv',
  colorSpace: 'bt709',
  colorPrimaries: null,
  colorTransfer: null,
  bitRate: 2_000_000,
  ...o,
});
const source = mediaInput('/work/original.mp4');
const r = (start: number, end: number) => ({ start, end });

describe('pieces: encoder settings that match the source', () => {
  it('x264 with the source profile, pixel format and colour tags, rate capped at 1.5x the source', () => {
    expect(pieceEncoderArgs(video(), 18)).toEqual([
      '-c:v', 'libx264', '-preset', 'ultrafast', '-x264-params', 'deblock=1,0,0', '-crf', '18', '-maxrate', '3000000', '-bufsize', '3000000',
      '-profile:v', 'high', '-pix_fmt', 'yuv420p', '-color_range', 'tv', '-colorspace', 'bt709',
    ]);
    // a very cheap source: the floor of 0.1 bit per pixel per frame
    expect(pieceEncoderArgs(video({ bitRate: 100_000 }), 18)).toContain(String(Math.round(0.1 * 1280 * 720 * 30)));
    expect(pieceEncoderArgs(video({ bitRate: null }), 18)).not.toContain('-maxrate');
  });

  it('x265 with in-band headers and the cap as VBV', () => {
    const args = pieceEncoderArgs(video({ codec: 'hevc', profile: 'Main' }), 20);
    expect(args.slice(0, 2)).toEqual(['-c:v', 'libx265']);
    expect(args[args.indexOf('-x265-params') + 1]).toBe('log-level=error:repeat-headers=1:deblock=0,0:vbv-maxrate=3000:vbv-bufsize=3000');
  });
});

describe('pieces: batches', () => {
  it('fill whole rounds of the lanes, heaviest first, at most a few pieces per process', () => {
    const weights = [50, 10, 40, 30, 20, 5, 5, 5];
    const batches = pieceBatches(weights, [0, 1, 2, 3, 4], 2);
    expect(batches).toEqual([[0, 4, 1], [2, 3]]);
    const many = pieceBatches(Array(40).fill(1), Array.from({ length: 40 }, (_, i) => i), 2);
    expect(many.length % 2).toBe(0);
    expect(Math.max(...many.map((b) => b.length))).toBeLessThanOrEqual(MAX_PIECES_PER_PROCESS);
    expect(many.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i));
    expect(pieceBatches(weights, [], 2)).toEqual([]);
  });

  it('one seeking input per piece (half a frame early), an exact frame count per output', () => {
    const v = video();
    const pieces: PlannedPiece[] = [
      { start: 0, end: 60, mode: 'copy', decodeFrom: 0 },
      { start: 70, end: 120, mode: 'encode', decodeFrom: 60 },
    ];
    const c = pieceBatchCommand({ source, video: v, secOf: (f) => f / 30, pieces, batch: [1], files: ['/w/p0.mp4', '/w/p1.mp4'], crf: 18 });
    expect(c.inputs).toHaveLength(1);
    expect(c.inputs[0]!.options).toEqual(['-noautorotate', '-threads', '1', '-ss', (70 / 30 - 1 / 60).toFixed(9), '-t', (52 / 30).toFixed(9)]);
    expect(c.args.slice(0, 6)).toEqual(['-map', '0:v:0', '-frames:v', '50', '-fps_mode', 'passthrough']);
    expect(c.args[c.args.length - 1]).toBe('file:/w/p1.mp4');
  });
});

describe('the full re-encode', () => {
  const ticks = Array.from({ length: 301 }, (_, i) => i * 512);
  const base = { source, video: video(), secOf: (f: number) => f / 30, ticks, threads: 2, output: '/w/out.mp4', muxArgs: ['-movflags', '+faststart'] };

  it('cuts in source order: one input from the first kept frame to the last, the kept frames selected', () => {
    const c = reencodeCommand({ ...base, ranges: [r(30, 60), r(90, 120)] });
    expect(c.inputs).toHaveLength(1);
    expect(c.inputs[0]!.options).toEqual(['-ss', (30 / 30 - 0.5 / 30).toFixed(9), '-t', (90 / 30).toFixed(9)]);
    // frame 90 follows frame 59 at once: the 30 frames between are taken out of its time
    expect(c.graph).toBe("[0:v:0]select='between(n,0,29)+between(n,60,89)',setpts='0+PTS-STARTPTS-(gte(N,30)*15360)',crop=trunc(iw/2)*2:trunc(ih/2)*2:0:0,format=yuv420p[vout]");
    expect(c.args.slice(-5)).toEqual(['-movflags', '+faststart', '-f', 'mp4', 'file:/w/out.mp4']);
    expect(c.args.join(' ')).toContain('-fps_mode passthrough -enc_time_base 1/15360');
  });

  it('a reorder: one input per block, each placed after the one before, merged in time order; the reframe, then the captions (path escaped)', () => {
    const c = reencodeCommand({ ...base, ranges: [r(200, 250), r(0, 30), r(40, 60)], videoFilter: 'crop=405:720:437:0,scale=1080:1920', assFile: "/w/it's:a.ass" });
    expect(c.inputs).toHaveLength(2);
    expect(c.graph).toBe(
      "[0:v:0]select='between(n,0,49)',setpts='0+PTS-STARTPTS'[v0];" +
        "[1:v:0]select='between(n,0,29)+between(n,40,59)',setpts='25600+PTS-STARTPTS-(gte(N,30)*5120)'[v1];" +
        "[v0][v1]interleave=nb_inputs=2,crop=405:720:437:0,scale=1080:1920,crop=trunc(iw/2)*2:trunc(ih/2)*2:0:0,ass=filename=/w/it\\'s\\:a.ass,format=yuv420p[vout]",
    );
  });

  it('a variable frame rate: the cut out of a range is its source time, not a count of frames', () => {
    // 30 fps, then 20 fps from frame 150 (768 ticks a frame)
    const vfr = Array.from({ length: 301 }, (_, i) => (i <= 150 ? i * 512 : 150 * 512 + (i - 150) * 768));
    const c = reencodeCommand({ ...base, ticks: vfr, video: video({ frameTicks: null }), ranges: [r(100, 140), r(160, 200)] });
    expect(c.graph).toContain(`setpts='0+PTS-STARTPTS-(gte(N,40)*${vfr[160]! - vfr[140]!})'`);
  });

  it('refuses an edit that would open more inputs than the limit', () => {
    const ranges = Array.from({ length: MAX_REENCODE_INPUTS + 1 }, (_, i) => r(1000 - 10 * i, 1005 - 10 * i));
    expect(ascendingRuns(ranges)).toHaveLength(MAX_REENCODE_INPUTS + 1);
    expect(() => reencodeCommand({ ...base, ranges })).toThrow(RangeError);
  });

  it('joins the video with its audio by copying', () => {
    expect(joinCommand('/w/v.mp4', null, '/w/out.mp4', []).args).toEqual(['-map', '0:v:0', '-c', 'copy', '-f', 'mp4', 'file:/w/out.mp4']);
    expect(joinCommand('/w/v.mp4', source, '/w/out.mp4', []).inputs).toHaveLength(2);
  });
});
