import { EDIT_JOB_KINDS, QUOTA_NEAR_RATIO, formatElapsed, formatTimeRemaining, jobBlockedBy, quotaState, type EditJobKind, type RunningJobs } from './index';

const idle: RunningJobs = [];
const VIDEO = 'Another video processing job is running. Please wait for it to finish.';
const MUTE = 'A mute job is already running. Please wait for it to finish.';

describe('jobBlockedBy: the registry\'s rule, the same as the renders table\'s', () => {
  const kinds: EditJobKind[] = ['cut', 'filler', 'keep', 'mute', 'reorder', 'caption', 'silence'];

  it('lets the editor start every registry kind with an overlay, and keep', () => {
    expect([...EDIT_JOB_KINDS].sort()).toEqual([...kinds].sort());
  });

  it('allows every job when nothing runs, and beside clips and analyses', () => {
    expect(kinds.map((k) => jobBlockedBy(k, idle))).toEqual(kinds.map(() => null));
    expect(kinds.map((k) => jobBlockedBy(k, ['clip', 'keymoments', 'probe']))).toEqual(kinds.map(() => null));
  });

  it('blocks every version job while another version job runs', () => {
    for (const busy of ['cut', 'filler', 'reorder', 'caption', 'silence'] as const) {
      expect(kinds.map((k) => jobBlockedBy(k, [busy]))).toEqual(kinds.map(() => VIDEO));
    }
  });

  it('says a mute is running when only a mute blocks a mute', () => {
    expect(kinds.map((k) => jobBlockedBy(k, ['mute']))).toEqual(kinds.map((k) => (k === 'mute' ? MUTE : VIDEO)));
    expect(jobBlockedBy('mute', ['mute', 'cut'])).toBe(VIDEO);
  });
});

describe('formats', () => {
  it('formats elapsed time', () => {
    expect([0, 45.9, 60, 192, 3599, 3600, 3900, 3959].map(formatElapsed)).toEqual(['0s', '45s', '1m 0s', '3m 12s', '59m 59s', '1h 0m', '1h 5m', '1h 5m']);
    expect([-5, NaN, Infinity].map(formatElapsed)).toEqual(['0s', '0s', '0s']);
  });

  it('formats time remaining', () => {
    expect(formatTimeRemaining(null)).toBeNull();
    expect(formatTimeRemaining(undefined)).toBeNull();
    expect(formatTimeRemaining(-1)).toBeNull();
    expect(formatTimeRemaining(NaN)).toBeNull();
    expect(formatTimeRemaining(0)).toBe('Less than a minute remaining');
    expect(formatTimeRemaining(59.9)).toBe('Less than a minute remaining');
    expect(formatTimeRemaining(60)).toBe('About 1 minute remaining');
    expect(formatTimeRemaining(61)).toBe('About 2 minutes remaining');
    expect(formatTimeRemaining(300)).toBe('About 5 minutes remaining');
  });
});

describe('quotaState', () => {
  it('is near from 80% and exceeded from 100%', () => {
    expect(QUOTA_NEAR_RATIO).toBe(0.8);
    expect([0, 7, 8, 9, 10, 12].map((used) => quotaState(10, used))).toEqual(['ok', 'ok', 'near', 'near', 'exceeded', 'exceeded']);
  });

  it('always allows without a positive limit', () => {
    expect([quotaState(null, 99), quotaState(undefined, 99), quotaState(0, 99), quotaState(-1, 99), quotaState(NaN, 99)]).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
  });
});
