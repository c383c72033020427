import type { ProbeResult, ProbeStream } from '@wordcut/contracts';

/** ffprobe's format name of the MP4/MOV family and of Matroska/WebM. */
const MP4_FAMILY = /(^|,)(mp4|mov)(,|$)/;
const WEBM_FAMILY = /(^|,)webm(,|$)/;
/** Codecs Chromium plays per container (WebM takes only the open codecs). */
const BROWSER_CODECS = {
  mp4: { video: new Set(['h264', 'vp8', 'vp9', 'av1']), audio: new Set(['aac', 'mp3', 'opus', 'vorbis']) },
  webm: { video: new Set(['vp8', 'vp9', 'av1']), audio: new Set(['opus', 'vorbis']) },
} as const;
/** 8-bit 4:2:0, the only pixel formats every browser decoder (incl. hardware ones) takes. */
const BROWSER_PIX_FMTS = new Set(['yuv420p', 'yuvj420p']);
/** H.264 profiles beyond 8-bit 4:2:0 (High 10, High 4:2:2, High 4:4:4 ...). */
const UNPLAYABLE_H264_PROFILE = /high 10|4:2:2|4:4:4|cavlc 4:4:4/i;

export interface BrowserPlayback {
  /** True when Chromium plays the file as it is; false when it needs a proxy (or is no video). */
  playable: boolean;
  /** Why not, one short reason per problem (empty when playable). */
  reasons: string[];
}

/**
 * The stream the picture comes from: the first video stream (ffprobe lists cover art as a video
 * stream too, but the contract has no disposition; cover art only comes with audio files).
 */
export function primaryVideoStream(probe: ProbeResult): ProbeStream | undefined {
  return probe.streams.find((s) => s.codecType === 'video');
}

export function primaryAudioStream(probe: ProbeResult): ProbeStream | undefined {
  return probe.streams.find((s) => s.codecType === 'audio');
}

/**
 * Whether Chromium can play a probed file as is: in MP4/MOV, H.264, VP8, VP9 or AV1 video and AAC,
 * MP3, Opus or Vorbis audio; in WebM, VP8/VP9/AV1 with Opus/Vorbis; video always 8-bit 4:2:0. HEVC, 10-bit, 4:4:4,
 * ProRes and other containers need a proxy. A file without a video stream is not a video.
 * Rotation, odd sizes, variable frame rates and a moov at the end are fine for the browser.
 */
export function browserPlayback(probe: ProbeResult): BrowserPlayback {
  const video = primaryVideoStream(probe);
  if (!video) return { playable: false, reasons: ['no video stream'] };
  const reasons: string[] = [];
  const container = MP4_FAMILY.test(probe.formatName) ? 'mp4' : WEBM_FAMILY.test(probe.formatName) ? 'webm' : null;
  if (!container) reasons.push(`container ${probe.formatName} is not MP4 or WebM`);
  const codecs = BROWSER_CODECS[container ?? 'mp4'];
  const vcodec = video.codecName ?? 'unknown';
  if (!codecs.video.has(vcodec)) reasons.push(`video codec ${vcodec} is not playable in browsers`);
  if (video.pixFmt && !BROWSER_PIX_FMTS.has(video.pixFmt)) reasons.push(`pixel format ${video.pixFmt} is not 8-bit 4:2:0`);
  if (vcodec === 'h264' && video.profile && UNPLAYABLE_H264_PROFILE.test(video.profile)) reasons.push(`H.264 profile ${video.profile} is not playable in browsers`);
  const audio = primaryAudioStream(probe);
  if (audio) {
    const acodec = audio.codecName ?? 'unknown';
    if (!codecs.audio.has(acodec)) reasons.push(`audio codec ${acodec} is not playable in browsers`);
  }
  return { playable: reasons.length === 0, reasons };
}

/** Width and height as the picture is shown: swapped for a quarter-turn rotation. */
export function displayDimensions(stream: Pick<ProbeStream, 'width' | 'height' | 'rotation'> | undefined): { width: number | null; height: number | null } {
  if (!stream) return { width: null, height: null };
  const quarter = Math.abs(Math.round((stream.rotation ?? 0) / 90)) % 2 === 1;
  return quarter ? { width: stream.height, height: stream.width } : { width: stream.width, height: stream.height };
}
