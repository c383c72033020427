/**
 * Test media that carries its own clock, and the verifier that reads it back.
 *
 * Every video frame shows its own index N as 16 binary blocks across the top half of the picture
 * (block b is white when bit b of N is set; the bottom half is grey), and the audio is silence with
 * a 10 ms 1 kHz tone burst starting exactly at the start of every 5th frame. After an edit (cut,
 * reorder, mute) the decoded frame indices say which source frames a render shows, in which order,
 * and the burst onsets say where the audio of those frames landed, so integration tests can prove
 * frame-accurate cuts and A/V sync without trusting container timestamps.
 *
 * ffmpeg runs only through `runFfmpeg` (its stdout carries `-progress`), so raw frames and samples
 * go through temp files. The layout is in timecode-layout.ts; the generator, the frame and audio
 * readers and the sync check each have their own module.
 */
export {
  ANALYSIS_SAMPLE_RATE,
  BURST_AMPLITUDE,
  BURST_DURATION_SEC,
  BURST_EVERY_FRAMES,
  BURST_FREQUENCY_HZ,
  TIMECODE_BITS,
  TIMECODE_LAYOUT,
} from './timecode-layout';
export { generateTimecodeMedia, timecodeAudioFilter, timecodePattern, type TimecodeMediaOptions } from './timecode-generate';
export { readFrameNumbers, type ReadFramesOptions } from './timecode-frames';
export { detectToneLevel, findBurstOnsets, readBurstOnsets, type BurstOnsetOptions } from './timecode-audio';
export { checkSync, expectedFramesForSegments, type SyncReport } from './timecode-sync';
export { generateVfrTimecodeMedia, vfrTimeline, VFR_TIMESCALE, type VfrMediaOptions, type VfrTimeline } from './timecode-vfr';
