import { Library, renderLibraryHtml, type StoredFile } from './library';

const file = (bytes: number, sha: string): StoredFile => ({ uploadId: `up_${sha}`, bytes, sha256: sha.repeat(64).slice(0, 64), contentType: 'video/mp4', uploadedAt: '2026-01-01T00:00:00.000Z', path: `/tmp/${sha}` });

describe('Library', () => {
  it('records sessions on videos; a second session on a video joins it', () => {
    const lib = new Library();
    lib.openSession({ videoId: 'demo', sessionId: 's1', title: 'demo', kind: 'original', owner: 'u' });
    lib.openSession({ videoId: 'demo', sessionId: 's2', title: 'demo', kind: 'original', owner: 'u' });
    expect(lib.list()).toHaveLength(1);
    expect(lib.list()[0]).toMatchObject({ videoId: 'demo', sessionId: 's2', sessions: ['s1', 's2'], isClone: false });
    expect(lib.videoOfSession('s1')?.videoId).toBe('demo');
  });

  it('a clone is a new video with the source files; later uploads to it leave the source alone', () => {
    const lib = new Library();
    lib.openSession({ videoId: 'demo', sessionId: 's1', title: 'Talk', kind: 'original', owner: 'u', media: { videoUrl: 'http://p/media/demo.mp4' } });
    lib.storeFile('demo', 'vtt', file(10, 'a'));
    const c = lib.clone('demo', { videoId: 'v2', sessionId: 's9', title: 'Talk (clone)', owner: 'u' });
    expect(c).toMatchObject({ kind: 'clone', isClone: true, sourceVideoId: 'demo', media: { videoUrl: 'http://p/media/demo.mp4' } });
    expect(c.files.vtt).toMatchObject({ bytes: 10 });
    lib.storeFile('v2', 'vtt', file(20, 'b'));
    expect(lib.video('demo')!.files.vtt!.bytes).toBe(10);
    expect(lib.videoOfSession('s9')!.files.vtt!.bytes).toBe(20);
  });

  it('a clip is its own video, listed on its parent; the session still names the parent', () => {
    const lib = new Library();
    lib.openSession({ videoId: 'demo', sessionId: 's1', title: 'Talk', kind: 'original', owner: 'u' });
    const clip = lib.addClip('demo', { videoId: 'c1', sessionId: 's1', title: 'Best bit', owner: 'u', file: file(5, 'c') });
    expect(clip).toMatchObject({ kind: 'clip', sourceVideoId: 'demo', files: { video: { bytes: 5 } } });
    expect(lib.video('demo')!.clips).toEqual([{ videoId: 'c1', title: 'Best bit' }]);
    expect(lib.videoOfSession('s1')!.videoId).toBe('demo');
    // the JSON view has no file paths
    expect(JSON.stringify(lib.list())).not.toContain('/tmp/');
  });

  it('renders titles, kinds, byte sizes, sha256 prefixes and file labels, escaped', () => {
    const lib = new Library();
    lib.openSession({ videoId: 'demo', sessionId: 's1', title: 'Talk <b>', kind: 'original', owner: 'u' });
    lib.storeFile('demo', 'video', file(1234, 'd'));
    lib.storeFile('demo', 'vtt', file(56, 'e'));
    lib.addClip('demo', { videoId: 'c1', sessionId: 's1', title: 'Intro & outro', owner: 'u', file: file(78, 'f') });
    const html = renderLibraryHtml(lib.list());
    expect(html).toContain('Talk &lt;b&gt; <small>(Original)</small>');
    expect(html).toContain('Main video');
    expect(html).toContain('1234 bytes');
    expect(html).toContain(`sha256 ${'d'.repeat(12)}`);
    expect(html).toContain('Subtitles');
    expect(html).toContain('Clip: Intro &amp; outro');
    expect(html).toContain('78 bytes');
    expect(html).toContain('(Clip)');
    expect(renderLibraryHtml([])).toContain('The library is empty');
  });
});
