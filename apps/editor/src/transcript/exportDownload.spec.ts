import { dispositionFileName } from './exportDownload';

describe('dispositionFileName', () => {
  it('takes the exact UTF-8 name, else the plain one, else the fallback', () => {
    expect(dispositionFileName(`attachment; filename="Caf_ talk.edl"; filename*=UTF-8''Caf%C3%A9%20talk.edl`, 'x.edl')).toBe('Café talk.edl');
    expect(dispositionFileName('attachment; filename="talk.mlt"', 'x.mlt')).toBe('talk.mlt');
    expect(dispositionFileName(`attachment; filename="a.otio"; filename*=UTF-8''%E0%A4%A`, 'x.otio')).toBe('a.otio');
    expect(dispositionFileName(null, 'x.srt')).toBe('x.srt');
  });
});
