import type { ClipItem } from './api';
import { focusIndexAfterDelete, newlyFinished, seenClips } from './finished';

const clip = (id: string, status: ClipItem['status']): ClipItem => ({ id, videoId: 'v', name: id, startTime: 0, endTime: 1, aspectRatio: 'Original', status, outputPath: '', vttPath: '' });

describe('newlyFinished', () => {
  it('names the clips that were pending or processing and are completed now', () => {
    const seen = seenClips([clip('a', 'processing'), clip('b', 'pending'), clip('c', 'completed'), clip('d', 'processing')]);
    const now = [clip('a', 'completed'), clip('b', 'completed'), clip('c', 'completed'), clip('d', 'failed'), clip('e', 'completed')];
    expect(newlyFinished(seen, now).map((c) => c.id)).toEqual(['a', 'b']);
  });

  it('announces nothing on the first look at the list', () => {
    expect(newlyFinished(new Map(), [clip('a', 'completed')])).toEqual([]);
  });
});

describe('focusIndexAfterDelete', () => {
  it('moves to the row that took the deleted one’s place, else the last, else nowhere', () => {
    expect(focusIndexAfterDelete(1, 3)).toBe(1);
    expect(focusIndexAfterDelete(3, 3)).toBe(2);
    expect(focusIndexAfterDelete(0, 0)).toBeNull();
  });
});
