/**
 * ffmpeg `-progress` output: blocks of `key=value` lines, each ended by `progress=continue` or
 * `progress=end`, e.g.
 *   frame=50 fps=0.00 stream_0_0_q=-1.0 bitrate= 349.2kbits/s total_size=88175 out_time_us=2020136
 *   out_time_ms=2020136 out_time=00:00:02.020136 dup_frames=0 drop_frames=0 speed=12.1x progress=end
 * (`out_time_ms` is in microseconds too, an old ffmpeg quirk; values may be `N/A`.)
 */
export interface FfmpegProgress {
  /** Position written so far, seconds (>= 0), or null when ffmpeg does not know yet. */
  outTimeSec: number | null;
  frame: number | null;
  fps: number | null;
  /** Realtime factor (2 = twice realtime). */
  speed: number | null;
  totalSizeBytes: number | null;
  /** 0..100, only when the expected output duration is known; 100 on the final block. */
  percent: number | null;
  /** True on the final block (`progress=end`). */
  done: boolean;
  /** Every key=value of the block as ffmpeg wrote it. */
  raw: Record<string, string>;
}

function num(v: string | undefined): number | null {
  if (v === undefined) return null;
  const t = v.trim();
  if (t === '' || t === 'N/A') return null;
  const n = Number(t.endsWith('x') ? t.slice(0, -1) : t);
  return Number.isFinite(n) ? n : null;
}

/** `HH:MM:SS.micro` (possibly negative) to seconds. */
export function parseClock(v: string | undefined): number | null {
  if (!v) return null;
  const m = /^(-)?(\d+):(\d{2}):(\d{2}(?:\.\d+)?)$/.exec(v.trim());
  if (!m) return null;
  const s = Number(m[2]) * 3600 + Number(m[3]) * 60 + Number(m[4]);
  return m[1] ? -s : s;
}

/** Turns one block of key=values into a progress report. */
export function parseProgressBlock(raw: Record<string, string>, durationSec?: number | null): FfmpegProgress {
  let outTime: number | null = null;
  const us = num(raw['out_time_us']) ?? num(raw['out_time_ms']);
  if (us !== null) outTime = us / 1e6;
  else outTime = parseClock(raw['out_time']);
  if (outTime !== null) outTime = Math.max(0, outTime);

  const done = raw['progress'] === 'end';
  let percent: number | null = null;
  if (durationSec && durationSec > 0) {
    if (done) percent = 100;
    else if (outTime !== null) percent = Math.min(100, Math.max(0, (outTime / durationSec) * 100));
  }
  const frame = num(raw['frame']);
  return {
    outTimeSec: outTime,
    frame: frame === null ? null : Math.trunc(frame),
    fps: num(raw['fps']),
    speed: num(raw['speed']),
    totalSizeBytes: num(raw['total_size']),
    percent,
    done,
    raw,
  };
}

/** Incremental parser: feed stdout chunks, get one callback per completed block. */
export class ProgressParser {
  private buffer = '';
  private block: Record<string, string> = {};

  constructor(
    private readonly onBlock: (p: FfmpegProgress) => void,
    private readonly durationSec?: number | null,
  ) {}

  push(chunk: string | Buffer): void {
    this.buffer += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    let nl: number;
    while ((nl = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, nl).replace(/\r$/, '');
      this.buffer = this.buffer.slice(nl + 1);
      this.line(line);
    }
    // A runaway line (not -progress output) must not grow without bound.
    if (this.buffer.length > 64 * 1024) this.buffer = '';
  }

  private line(line: string): void {
    const eq = line.indexOf('=');
    if (eq <= 0) return;
    const key = line.slice(0, eq).trim();
    const value = line.slice(eq + 1).trim();
    this.block[key] = value;
    if (key === 'progress') {
      const block = this.block;
      this.block = {};
      this.onBlock(parseProgressBlock(block, this.durationSec));
    }
  }
}
