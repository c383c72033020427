import type { ProbeResult, ProbeStream } from '@wordcut/contracts';
import { browserPlayback, browserProxyCommand, buildFfmpegArgs, displayDimensions, mapFfprobeJson, mediaInput, streamRotation, unpinnedInputs } from '@wordcut/ffmpeg';

const MP4 = 'mov,mp4,m4a,3gp,3g2,mj2';

function stream(over: Partial<ProbeStream>): ProbeStream {
  return { index: 0, codecType: 'video', codecName: 'h264', width: 1280, height: 720, frameRate: 30, sampleRate: null, channels: null, durationSec: 3, pixFmt: 'yuv420p', rotation: 0, profile: 'High', ...over };
}
const aac = stream({ index: 1, codecType: 'audio', codecName: 'aac', width: null, height: null, frameRate: null, sampleRate: 44100, channels: 2, pixFmt: undefined, rotation: undefined, profile: 'LC' });

function probe(streams: ProbeStream[], formatName = MP4): ProbeResult {
  return { formatName, durationSec: 3, sizeBytes: 1000, bitRate: 1000, streams };
}

describe('browserPlayback', () => {
  it('plays 8-bit 4:2:0 H.264/VP9/AV1 with AAC/MP3/Opus/Vorbis in MP4, rotated, odd-sized or silent', () => {
    for (const v of ['h264', 'vp8', 'vp9', 'av1']) {
      for (const a of ['aac', 'mp3', 'opus', 'vorbis']) {
        expect(browserPlayback(probe([stream({ codecName: v }), { ...aac, codecName: a }]))).toEqual({ playable: true, reasons: [] });
      }
    }
    expect(browserPlayback(probe([stream({ pixFmt: 'yuvj420p', rotation: 90, width: 321, height: 241 })])).playable).toBe(true);
    expect(browserPlayback(probe([stream({ codecName: 'vp9' }), { ...aac, codecName: 'opus' }], 'matroska,webm')).playable).toBe(true);
    // results from older workers have no pixFmt/profile: judged by codec and container
    expect(browserPlayback(probe([stream({ pixFmt: undefined, profile: undefined, rotation: undefined })])).playable).toBe(true);
  });

  it('needs a proxy for HEVC, ProRes, 10-bit, 4:4:4, other audio codecs and other containers', () => {
    expect(browserPlayback(probe([stream({ codecName: 'hevc', profile: 'Main' }), aac]))).toEqual({
      playable: false,
      reasons: ['video codec hevc is not playable in browsers'],
    });
    expect(browserPlayback(probe([stream({ codecName: 'prores', pixFmt: 'yuv422p10le' })])).reasons).toEqual([
      'video codec prores is not playable in browsers',
      'pixel format yuv422p10le is not 8-bit 4:2:0',
    ]);
    expect(browserPlayback(probe([stream({ pixFmt: 'yuv420p10le', profile: 'High 10' })])).reasons).toEqual([
      'pixel format yuv420p10le is not 8-bit 4:2:0',
      'H.264 profile High 10 is not playable in browsers',
    ]);
    expect(browserPlayback(probe([stream({ pixFmt: 'yuv444p', profile: 'High 4:4:4 Predictive' })])).playable).toBe(false);
    expect(browserPlayback(probe([stream({}), { ...aac, codecName: 'pcm_s16le' }])).reasons).toEqual(['audio codec pcm_s16le is not playable in browsers']);
    expect(browserPlayback(probe([stream({})], 'avi')).reasons).toEqual(['container avi is not MP4 or WebM']);
    // WebM only takes the open codecs
    expect(browserPlayback(probe([stream({}), aac], 'matroska,webm')).reasons).toEqual([
      'video codec h264 is not playable in browsers',
      'audio codec aac is not playable in browsers',
    ]);
  });

  it('a file without a video stream is not a video', () => {
    expect(browserPlayback(probe([aac]))).toEqual({ playable: false, reasons: ['no video stream'] });
  });
});

describe('rotation and displayed size', () => {
  it('reads the display matrix (counter-clockwise) or the rotate tag (clockwise) as clockwise quarter turns', () => {
    expect(streamRotation({ side_data_list: [{ side_data_type: 'DisplayMatrix', rotation: 90 }] })).toBe(270);
    expect(streamRotation({ side_data_list: [{ side_data_type: 'Display Matrix', rotation: -90 }] })).toBe(90);
    expect(streamRotation({ side_data_list: [{ side_data_type: 'Display Matrix', rotation: '180' }] })).toBe(180);
    expect(streamRotation({ side_data_list: [{ side_data_type: 'Display Matrix', rotation: -89.9 }] })).toBe(90);
    expect(streamRotation({ tags: { rotate: '90' } })).toBe(90);
    expect(streamRotation({ tags: { rotate: '-90' } })).toBe(270);
    expect(streamRotation({})).toBe(0);
  });

  it('maps pix_fmt, profile and rotation into the probe result', () => {
    const r = mapFfprobeJson({
      format: { format_name: MP4 },
      streams: [
        { codec_type: 'video', codec_name: 'h264', width: 320, height: 180, pix_fmt: 'yuv420p', profile: 'High', side_data_list: [{ side_data_type: 'DisplayMatrix', rotation: 90 }] },
        { codec_type: 'audio', codec_name: 'aac', profile: 'LC' },
      ],
    });
    expect(r.streams[0]).toMatchObject({ pixFmt: 'yuv420p', profile: 'High', rotation: 270 });
    expect(r.streams[1]).toMatchObject({ profile: 'LC' });
    expect(r.streams[1]).not.toHaveProperty('rotation');
  });

  it('swaps width and height for quarter turns', () => {
    expect(displayDimensions(stream({ width: 320, height: 180, rotation: 90 }))).toEqual({ width: 180, height: 320 });
    expect(displayDimensions(stream({ width: 320, height: 180, rotation: 270 }))).toEqual({ width: 180, height: 320 });
    expect(displayDimensions(stream({ width: 320, height: 180, rotation: 180 }))).toEqual({ width: 320, height: 180 });
    expect(displayDimensions(stream({ width: 320, height: 180, rotation: undefined }))).toEqual({ width: 320, height: 180 });
    expect(displayDimensions(undefined)).toEqual({ width: null, height: null });
  });
});

describe('browserProxyCommand', () => {
  it('H.264 yuv420p with even dimensions, AAC 128k when there is audio, faststart', () => {
    const { inputs, args } = browserProxyCommand(mediaInput('https://s3/x.mp4?sig=1'), '/tmp/out.mp4');
    const after = (flag: string) => args[args.indexOf(flag) + 1];
    expect(inputs).toEqual([mediaInput('https://s3/x.mp4?sig=1')]);
    expect(unpinnedInputs(buildFfmpegArgs(args, { inputs }))).toEqual([]);
    expect(args).toEqual(expect.arrayContaining(['-map', '0:v:0', '0:a:0?']));
    expect(after('-vf')).toBe('scale=trunc(iw/2)*2:trunc(ih/2)*2,format=yuv420p');
    expect(after('-c:v')).toBe('libx264');
    expect(after('-preset')).toBe('veryfast');
    expect(after('-pix_fmt')).toBe('yuv420p');
    expect(after('-c:a')).toBe('aac');
    expect(after('-b:a')).toBe('128k');
    expect(after('-movflags')).toBe('+faststart');
    expect(args.at(-1)).toBe('file:/tmp/out.mp4');
  });
});
