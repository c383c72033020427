import { SIZE_RETRIES, SIZE_RETRY_MS, cueMoment, detectSourceSize, holdInMoment, togglePlay, type PlayableMedia } from './playback';

function media(currentTime = 0, paused = true): PlayableMedia & { plays: number } {
  const m = {
    currentTime,
    paused,
    plays: 0,
    pause() {
      m.paused = true;
    },
    play() {
      m.paused = false;
      m.plays += 1;
      return Promise.resolve();
    },
  };
  return m;
}

const MOMENT = { startTime: 10, endTime: 25 };

describe('playback inside a moment', () => {
  it('selecting pauses and seeks to the start', () => {
    const m = media(40, false);
    cueMoment(m, MOMENT);
    expect(m).toMatchObject({ paused: true, currentTime: 10 });
  });

  it('at the end pauses and goes back to the start', () => {
    const m = media(24.9, false);
    expect(holdInMoment(m, MOMENT)).toBe(false);
    expect(m.paused).toBe(false);
    m.currentTime = 25.1;
    expect(holdInMoment(m, MOMENT)).toBe(true);
    expect(m).toMatchObject({ paused: true, currentTime: 10 });
  });

  it('toggles: plays from inside the moment, from its start when outside, pauses when playing', () => {
    const m = media(12);
    togglePlay(m, MOMENT);
    expect(m).toMatchObject({ paused: false, currentTime: 12, plays: 1 });
    togglePlay(m, MOMENT);
    expect(m.paused).toBe(true);
    m.currentTime = 30;
    togglePlay(m, MOMENT);
    expect(m.currentTime).toBe(10);
  });
});

describe('detectSourceSize', () => {
  function fakeTimers() {
    const queue: Array<{ fn: () => void; ms: number }> = [];
    return {
      queue,
      timers: { set: (fn: () => void, ms: number) => queue.push({ fn, ms }), clear: () => queue.splice(0) },
      tick() {
        const next = queue.shift();
        next?.fn();
        return next;
      },
    };
  }

  it('answers the element size as soon as it is known', () => {
    const found = jest.fn();
    const t = fakeTimers();
    const probe = { videoWidth: 0, videoHeight: 0 };
    detectSourceSize(probe, null, found, t.timers);
    expect(found).not.toHaveBeenCalled();
    expect(t.queue[0]!.ms).toBe(SIZE_RETRY_MS);
    probe.videoWidth = 320;
    probe.videoHeight = 180;
    t.tick();
    expect(found).toHaveBeenCalledWith({ width: 320, height: 180 });
    expect(t.queue).toHaveLength(0);
  });

  it('tries 30 times 200 ms apart, then takes the fallback', () => {
    const found = jest.fn();
    const t = fakeTimers();
    detectSourceSize({ videoWidth: 0, videoHeight: 0 }, { width: 640, height: 360 }, found, t.timers);
    let tries = 1;
    while (t.tick()) tries += 1;
    expect(tries).toBe(SIZE_RETRIES);
    expect(found).toHaveBeenCalledTimes(1);
    expect(found).toHaveBeenCalledWith({ width: 640, height: 360 });
  });

  it('stops when asked', () => {
    const found = jest.fn();
    const t = fakeTimers();
    const probe = { videoWidth: 0, videoHeight: 0 };
    const stop = detectSourceSize(probe, null, found, t.timers);
    stop();
    probe.videoWidth = 10;
    probe.videoHeight = 10;
    expect(t.queue).toHaveLength(0);
    expect(found).not.toHaveBeenCalled();
  });
});
