import { INVALID_SUBTITLE, INVALID_VIDEO, MISSING_FILES, checkVideoFile, checkVttFile, isMp4File, isVttFile, messageText, validateUpload } from './validation';

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

  it('checks a single choice; no file is no problem yet', () => {
    expect(checkVideoFile(null)).toBeNull();
    expect(checkVideoFile(file('a.webm', 'video/webm'))).toBe(INVALID_VIDEO);
    expect(checkVttFile(null)).toBeNull();
    expect(checkVttFile(file('a.srt', ''))).toBe(INVALID_SUBTITLE);
  });

  it('needs both files, then both valid', () => {
    const mp4 = file('a.mp4', 'video/mp4');
    const vtt = file('a.vtt', 'text/vtt');
    expect(validateUpload(null, vtt)).toBe(MISSING_FILES);
    expect(validateUpload(mp4, null)).toBe(MISSING_FILES);
    expect(validateUpload(null, null)).toBe(MISSING_FILES);
    expect(validateUpload(file('a.avi', 'video/x-msvideo'), vtt)).toBe(INVALID_VIDEO);
    expect(validateUpload(mp4, file('a.srt', ''))).toBe(INVALID_SUBTITLE);
    expect(validateUpload(mp4, vtt)).toBeNull();
  });
});
