import { heldStreamSource } from './source';

describe('heldStreamSource', () => {
  it('keeps the URL of the same media version, even signed again', () => {
    const held = heldStreamSource(null, 'original', '/stream?st=a&t=1');
    expect(heldStreamSource(held, 'original', '/stream?st=b&t=1')).toBe(held);
  });

  it('takes the new URL when the media version changes', () => {
    const held = heldStreamSource(null, 'original', '/stream?st=a&t=1');
    expect(heldStreamSource(held, 'cut_1.mp4', '/stream?st=a&t=2')).toEqual({ version: 'cut_1.mp4', url: '/stream?st=a&t=2' });
  });

  it('takes the first URL once the media is playable, and drops it when it is not', () => {
    const pending = heldStreamSource(null, 'original', undefined);
    expect(heldStreamSource(pending, 'original', '/stream?t=1')).toEqual({ version: 'original', url: '/stream?t=1' });
    expect(heldStreamSource({ version: 'original', url: '/stream?t=1' }, 'original', undefined)).toEqual({ version: 'original', url: undefined });
  });
});
