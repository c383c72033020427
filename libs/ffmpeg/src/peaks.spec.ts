import fc from 'fast-check';
import { buildFfmpegArgs, MAX_PEAK_GAIN, mediaInput, PeakAccumulator, peaksDecodeCommand, scalePeaks, unpinnedInputs } from '@wordcut/ffmpeg';

/** s16le bytes of the given samples. */
function pcm(samples: number[]): Buffer {
  const b = Buffer.alloc(samples.length * 2);
  samples.forEach((s, i) => b.writeInt16LE(s, i * 2));
  return b;
}

describe('PeakAccumulator', () => {
  it('keeps the max |sample| of each bucket (rate / peaksPerSecond samples each)', () => {
    const acc = new PeakAccumulator(8, 2); // 4 samples per bucket
    acc.push(pcm([0, 100, -300, 50, /* | */ 0, 0, 0, 0, /* | */ -32768, 1]));
    expect(acc.sampleCount).toBe(10);
    const r = acc.finish(1);
    expect(r.durationSec).toBe(10 / 8);
    expect(r.peaks.length).toBe(3); // the last, partial bucket counts
    expect([...r.peaks]).toEqual([Math.round((300 / 32768) * 255), 0, 255]);
  });

  it('gives the same peaks however the bytes are chunked (odd splits inside a sample)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -32768, max: 32767 }), { minLength: 1, maxLength: 400 }),
        fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 50 }),
        (samples, cuts) => {
          const bytes = pcm(samples);
          const whole = new PeakAccumulator(100, 10);
          whole.push(bytes);
          const chunked = new PeakAccumulator(100, 10);
          let at = 0;
          for (let i = 0; at < bytes.length; i++) {
            const n = cuts[i % cuts.length]!;
            chunked.push(bytes.subarray(at, at + n));
            at += n;
          }
          expect(chunked.finish()).toEqual(whole.finish());
          expect(whole.finish().peaks.length).toBe(Math.ceil(samples.length / 10));
        },
      ),
    );
  });

  it('handles 8 kHz at 100 peaks/s: silence is 0, a tone is loud, bucket edges every 80 samples', () => {
    const acc = new PeakAccumulator(8000, 100);
    const silence = new Array(8000).fill(0);
    const tone = Array.from({ length: 8000 }, (_, i) => Math.round(16000 * Math.sin((2 * Math.PI * 440 * i) / 8000)));
    acc.push(pcm([...silence, ...tone]));
    const { durationSec, peaks } = acc.finish();
    expect(durationSec).toBe(2);
    expect(peaks.length).toBe(200);
    expect(peaks.subarray(0, 100).every((p) => p === 0)).toBe(true);
    expect(peaks.subarray(100).every((p) => p > 200)).toBe(true);
  });

  it('rejects nonsense rates', () => {
    expect(() => new PeakAccumulator(0, 100)).toThrow(RangeError);
    expect(() => new PeakAccumulator(8000, 0)).toThrow(RangeError);
    expect(() => new PeakAccumulator(100, 200)).toThrow(RangeError);
  });
});

describe('scalePeaks', () => {
  it('normalises the loudest peak to full scale, gain capped at MAX_PEAK_GAIN', () => {
    // a quiet talk peaking at 1/2 of full scale: doubled
    expect([...scalePeaks([0, 8192, 16384])]).toEqual([0, 128, 255]);
    // room noise only (1/64 of full scale): only MAX_PEAK_GAIN times louder
    expect([...scalePeaks([512])]).toEqual([Math.round(((512 * MAX_PEAK_GAIN) / 32768) * 255)]);
    // already loud: unchanged
    expect([...scalePeaks([32768, 16384])]).toEqual([255, 128]);
    // silence stays silence
    expect([...scalePeaks([0, 0])]).toEqual([0, 0]);
    expect(scalePeaks([]).length).toBe(0);
  });
});

describe('peaksDecodeCommand', () => {
  it('decodes only the first audio stream of the pinned input to 8 kHz mono s16le on stdout, on its timestamps from 0', () => {
    const input = mediaInput('/tmp/a b.mp4');
    expect(peaksDecodeCommand(input)).toEqual({
      inputs: [input],
      args: ['-map', '0:a:0', '-vn', '-sn', '-dn', '-af', 'aresample=async=1:first_pts=0', '-ac', '1', '-ar', '8000', '-c:a', 'pcm_s16le', '-f', 's16le', 'pipe:1'],
    });
  });

  it('leaves stdout to the samples: no -progress pipe:1 when progress is off; the input is pinned', () => {
    const { inputs, args: rest } = peaksDecodeCommand(mediaInput('a.mp4'));
    const args = buildFfmpegArgs(rest, { inputs, progress: false });
    expect(args).not.toContain('-progress');
    expect(args.slice(0, 3)).toEqual(['-hide_banner', '-nostdin', '-nostats']);
    expect(args.at(-1)).toBe('pipe:1');
    expect(unpinnedInputs(args)).toEqual([]);
    expect(args.slice(args.indexOf('-i') - 8, args.indexOf('-i') + 2)).toEqual([
      '-f', 'mov', '-format_whitelist', 'mov', '-enable_drefs', '0', '-protocol_whitelist', 'file', '-i', 'file:a.mp4',
    ]);
  });
});
