import { TIME_UPDATE_INTERVAL_MS, createPlaybackStore } from './playback';

describe('playback store', () => {
  function setup() {
    let now = 0;
    const store = createPlaybackStore(() => now);
    const seen: number[] = [];
    store.subscribe(() => seen.push(store.getSnapshot().currentTime));
    return { store, seen, advance: (ms: number) => (now += ms) };
  }

  it('keeps one time update per 100 ms', () => {
    const { store, seen, advance } = setup();
    store.reportTime(0.01); // first one passes
    for (let i = 1; i <= 20; i += 1) {
      advance(16);
      store.reportTime(i * 0.016);
    }
    // frames every 16 ms over 320 ms: accepted at 0, 112 and 224 ms (the first frame 100 ms or more after the last)
    expect(seen).toEqual([0.01, 7 * 0.016, 14 * 0.016]);
    expect(TIME_UPDATE_INTERVAL_MS).toBe(100);
  });

  it('lets forced updates (seeked, paused) through', () => {
    const { store, seen } = setup();
    store.reportTime(1);
    store.reportTime(2, true);
    expect(seen).toEqual([1, 2]);
  });

  it('does not notify when nothing changed', () => {
    const { store, seen, advance } = setup();
    store.reportTime(1);
    advance(500);
    store.reportTime(1);
    store.setPlaying(false);
    expect(seen).toEqual([1]);
  });

  it('seeks the attached media, clamped to the duration', () => {
    const { store } = setup();
    const media = { currentTime: 0 };
    store.attach(media);
    store.setDuration(30);
    store.seek(12.5);
    expect(media.currentTime).toBe(12.5);
    expect(store.getSnapshot().currentTime).toBe(12.5);
    store.seek(99);
    expect(media.currentTime).toBe(30);
    store.seek(-4);
    expect(media.currentTime).toBe(0);
    store.attach(null);
    store.seek(5);
    expect(media.currentTime).toBe(0);
    expect(store.getSnapshot().currentTime).toBe(5);
  });

  it('unsubscribes', () => {
    const store = createPlaybackStore(() => 0);
    const listener = jest.fn();
    const off = store.subscribe(listener);
    store.setPlaying(true);
    off();
    store.setPlaying(false);
    expect(listener).toHaveBeenCalledTimes(1);
  });
});
