import { TranscriptAnswers } from './transcript-answers';

describe('TranscriptAnswers', () => {
  it('answers only for the version it was stored with', () => {
    const a = new TranscriptAnswers();
    a.set('t1', 'v1', '{"version":1}');
    expect(a.get('t1', 'v1')).toBe('{"version":1}');
    expect(a.get('t1', 'v2')).toBeNull();
    expect(a.get('t2', 'v1')).toBeNull();
    a.set('t1', 'v2', '{"version":2}');
    expect(a.get('t1', 'v1')).toBeNull();
    expect(a.size).toEqual({ entries: 1, chars: 13 });
  });

  it('keeps the most recently read within its bound, and never holds one answer over it', () => {
    const a = new TranscriptAnswers(20);
    a.set('a', 's', '0123456789');
    a.set('b', 's', '0123456789');
    expect(a.get('a', 's')).not.toBeNull(); // a is now the most recent
    a.set('c', 's', '0123456789');
    expect(a.get('b', 's')).toBeNull();
    expect(a.get('a', 's')).not.toBeNull();
    expect(a.get('c', 's')).not.toBeNull();
    a.set('huge', 's', 'x'.repeat(21));
    expect(a.get('huge', 's')).toBeNull();
    expect(a.size.chars).toBeLessThanOrEqual(20);
  });
});
