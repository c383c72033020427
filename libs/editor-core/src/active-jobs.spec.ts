import {
  ACTIVE_JOBS_STORAGE_KEY,
  ACTIVE_JOB_TTL_MS,
  DIALOG_POLL_MS,
  PAGE_POLL_MS,
  activeJobCount,
  activeJobsButtonLabel,
  addStoredJob,
  canCancel,
  listedJobs,
  readStoredJobs,
  removeStoredJob,
  serializeStoredJobs,
  storedJobsForVideo,
  userJobsPollInterval,
  type StoredActiveJob,
  type UserJobStatus,
} from './active-jobs';

const NOW = Date.UTC(2025, 0, 10, 12, 0, 0);
const HOUR = 60 * 60 * 1000;

const job = (jobId: string, startedAt: number, videoId = 'v1', type = 'cut'): StoredActiveJob => ({ jobId, type, videoId, startedAt });

describe('constants', () => {
  it('are the storage key, lifetime and poll intervals', () => {
    expect(ACTIVE_JOBS_STORAGE_KEY).toBe('wordcut_active_jobs');
    expect(ACTIVE_JOB_TTL_MS).toBe(86_400_000);
    expect(DIALOG_POLL_MS).toBe(2000);
    expect(PAGE_POLL_MS).toBe(3000);
  });
});

describe('readStoredJobs', () => {
  it('reads back what serializeStoredJobs wrote', () => {
    const list = [job('cut_a', NOW - HOUR), job('silence_b', NOW - 2 * HOUR, 'v2', 'silence')];
    expect(readStoredJobs(serializeStoredJobs(list), NOW)).toEqual(list);
  });

  it('tolerates missing values, bad JSON and non-arrays', () => {
    for (const raw of [null, '', '{', 'null', '42', '"x"', '{"jobId":"cut_a"}']) expect(readStoredJobs(raw, NOW)).toEqual([]);
  });

  it('drops malformed records and keeps only the four fields', () => {
    const raw = JSON.stringify([
      null,
      7,
      [],
      { jobId: '', type: 'cut', videoId: 'v1', startedAt: NOW },
      { jobId: 'cut_a', type: 'cut', videoId: 'v1' },
      { jobId: 'cut_b', type: 'cut', videoId: 'v1', startedAt: '2025-01-10' },
      { jobId: 'cut_c', type: 3, videoId: 'v1', startedAt: NOW },
      { jobId: 'cut_d', type: 'cut', videoId: null, startedAt: NOW },
      { jobId: 'cut_ok', type: 'cut', videoId: 'v1', startedAt: NOW - 1000, extra: true },
    ]);
    expect(readStoredJobs(raw, NOW)).toEqual([job('cut_ok', NOW - 1000)]);
  });

  it('drops records 24 h old or older and records more than a minute in the future', () => {
    const raw = serializeStoredJobs([
      job('old', NOW - ACTIVE_JOB_TTL_MS),
      job('almost_old', NOW - ACTIVE_JOB_TTL_MS + 1),
      job('skewed', NOW + 60_000),
      job('future', NOW + 60_001),
    ]);
    expect(readStoredJobs(raw, NOW).map((j) => j.jobId)).toEqual(['almost_old', 'skewed']);
  });

  it('keeps one record per jobId, the latest startedAt winning, at the first position', () => {
    const raw = serializeStoredJobs([job('a', NOW - 3000, 'v1'), job('b', NOW - 2000), job('a', NOW - 1000, 'v9'), job('a', NOW - 5000, 'v5')]);
    expect(readStoredJobs(raw, NOW)).toEqual([job('a', NOW - 1000, 'v9'), job('b', NOW - 2000)]);
  });
});

describe('stored job list updates', () => {
  it('adds a job last, replacing its earlier record and dropping expired ones', () => {
    const list = [job('a', NOW - 2 * HOUR), job('expired', NOW - 25 * HOUR), job('b', NOW - HOUR)];
    expect(addStoredJob(list, job('a', NOW, 'v2'), NOW)).toEqual([job('b', NOW - HOUR), job('a', NOW, 'v2')]);
    expect(list).toHaveLength(3); // not mutated
  });

  it('removes a job by id', () => {
    const list = [job('a', NOW), job('b', NOW)];
    expect(removeStoredJob(list, 'a')).toEqual([job('b', NOW)]);
    expect(removeStoredJob(list, 'zzz')).toEqual(list);
  });

  it('filters by video', () => {
    const list = [job('a', NOW, 'v1'), job('b', NOW, 'v2'), job('c', NOW, 'v1')];
    expect(storedJobsForVideo(list, 'v1').map((j) => j.jobId)).toEqual(['a', 'c']);
    expect(storedJobsForVideo(list, 'v3')).toEqual([]);
  });

  it('serializes exactly the four fields', () => {
    const withExtra = { ...job('a', NOW), progress: 50 } as StoredActiveJob;
    expect(JSON.parse(serializeStoredJobs([withExtra]))).toEqual([{ jobId: 'a', type: 'cut', videoId: 'v1', startedAt: NOW }]);
    expect(serializeStoredJobs([])).toBe('[]');
  });
});

describe('job list', () => {
  const statuses: UserJobStatus[] = ['pending', 'processing', 'completed', 'error', 'failed', 'cancelled'];
  const jobs = statuses.map((status, i) => ({ id: `j${i}`, status }));

  it('lists pending, processing and error (failed counts as error) in order', () => {
    expect(listedJobs(jobs).map((j) => j.status)).toEqual(['pending', 'processing', 'error', 'failed']);
    expect(listedJobs([])).toEqual([]);
  });

  it('counts pending and processing jobs', () => {
    expect(activeJobCount(jobs)).toBe(2);
    expect(activeJobCount([{ status: 'completed' }])).toBe(0);
    expect(activeJobCount(undefined)).toBe(0);
  });

  it('offers cancel for pending and processing only', () => {
    expect(statuses.map(canCancel)).toEqual([true, true, false, false, false, false]);
  });

  it('labels the floating button', () => {
    expect(activeJobsButtonLabel(3)).toBe('Active Jobs (3)');
    expect(activeJobsButtonLabel(activeJobCount(jobs))).toBe('Active Jobs (2)');
  });
});

describe('userJobsPollInterval', () => {
  it('polls every 2 s while the dialog is open', () => {
    expect(userJobsPollInterval([], true)).toBe(2000);
    expect(userJobsPollInterval(undefined, true)).toBe(2000);
    expect(userJobsPollInterval([{ status: 'processing' }], true)).toBe(2000);
  });

  it('polls every 3 s in the page only while jobs are active', () => {
    expect(userJobsPollInterval([{ status: 'completed' }, { status: 'pending' }], false)).toBe(3000);
    expect(userJobsPollInterval([{ status: 'completed' }, { status: 'error' }], false)).toBe(false);
    expect(userJobsPollInterval(undefined, false)).toBe(false);
  });
});
