import { INVALID_SUBTITLE, INVALID_VIDEO, MISSING_FILES, checkVideoFile, checkVttFile, isCaptionFile, isMp4File, isVideoFile, isVttFile, messageText, validateUpload } from './validation';

const file = (name: string, type = '') => ({ name, type });

describe('upload validation', () => {
  it('has the exact user-facing texts', () => {
    expect(messageText(INVALID_VIDEO)).toBe('Invalid video format: Please select an MP4 video file.');
    expect(messageText(INVALID_SUBTITLE)).toBe('Invalid subtitle format: Please select a VTT subtitle file.');
    expect(messageText(MISSING_FILES)).toBe('Missing files: Please select both MP4 video and VTT subtitle files.');
  });

  it('accepts an MP4 by type or by name, in any case', () => {
    expect(isMp4File(file('clip', 'video/mp4'))).toBe(true);
    expect(isMp4File(file('CLIP.MP4', ''))).toBe(true);
    expect(isMp4File(file('clip.mov', 'video/quicktime'))).toBe(false);
    expect(isMp4File(file('clip.mp4.txt', 'text/plain'))).toBe(false);
  });

  it('accepts a VTT by type text/vtt or text/plain, or by name', () => {
    expect(isVttFile(file('subs', 'text/vtt'))).toBe(true);
    expect(isVttFile(file('subs.txt', 'text/plain'))).toBe(true);
    expect(isVttFile(file('Subs.VTT', 'application/octet-stream'))).toBe(true);
    expect(isVttFile(file('subs.srt', 'application/x-subrip'))).toBe(false);
  });

  it('also takes MOV, MKV and WebM recordings, and SubRip or JSON captions', () => {
    expect(isVideoFile(file('obs.mkv', ''))).toBe(true);
    expect(isVideoFile(file('screen', 'video/webm'))).toBe(true);
    expect(isVideoFile(file('phone.MOV', ''))).toBe(true);
    expect(isVideoFile(file('a.avi', 'video/x-msvideo'))).toBe(false);
    expect(isCaptionFile(file('subs.srt', ''))).toBe(true);
    expect(isCaptionFile(file('whisper.json', 'application/json'))).toBe(true);
    expect(isCaptionFile(file('subs.ass', ''))).toBe(false);
  });

  it('checks a single choice; no file is no problem yet', () => {
    expect(checkVideoFile(null)).toBeNull();
    expect(checkVideoFile(file('a.flv', 'video/x-flv'))).toBe(INVALID_VIDEO);
    expect(checkVttFile(null)).toBeNull();
    expect(checkVttFile(file('a.ass', ''))).toBe(INVALID_SUBTITLE);
  });

  it('needs both files, then both valid', () => {
    const mp4 = file('a.mp4', 'video/mp4');
    const vtt = file('a.vtt', 'text/vtt');
    expect(validateUpload(null, vtt)).toBe(MISSING_FILES);
    expect(validateUpload(mp4, null)).toBe(MISSING_FILES);
    expect(validateUpload(null, null)).toBe(MISSING_FILES);
    expect(validateUpload(file('a.avi', 'video/x-msvideo'), vtt)).toBe(INVALID_VIDEO);
    expect(validateUpload(mp4, file('a.docx', ''))).toBe(INVALID_SUBTITLE);
    expect(validateUpload(mp4, vtt)).toBeNull();
  });

  it('lets a video go without captions only where it can be transcribed', () => {
    const mp4 = file('a.mp4', 'video/mp4');
    expect(validateUpload(mp4, null, { canTranscribe: true })).toBeNull();
    expect(validateUpload(mp4, null, { canTranscribe: false })).toBe(MISSING_FILES);
    expect(validateUpload(null, null, { canTranscribe: true })).toBe(MISSING_FILES);
  });
});
