import { mostAtOnce, workerFigures, type JobEventRecord, type WorkerPoolSettings } from './worker-figures';

const POOL: WorkerPoolSettings = {
  functionName: 'wordcut-media',
  runtime: 'Node.js 20 + ffmpeg',
  memoryMb: 2048,
  timeoutSeconds: 7200,
  throttleWaitMs: 2000,
  pricePerMillionRequests: 0.2,
  pricePerGbSecond: 0.0000166667,
};
const T0 = Date.parse('2026-11-27T10:00:00Z');
const at = (s: number) => new Date(T0 + s * 1000);
const ev = (kind: JobEventRecord['kind'], jobId: string, s: number, error?: string): JobEventRecord => ({ kind, jobId, at: at(s), ...(error ? { error } : {}) });
const FROM = at(0);
const TO = at(3600);

describe('workerFigures', () => {
  it('counts attempts, errors, durations and cost over the period', () => {
    const events = [
      ev('requested', 'cut_a', 10),
      ev('started', 'cut_a', 10.5),
      ev('completed', 'cut_a', 20.5),
      ev('requested', 'clip_b', 100),
      ev('started', 'clip_b', 101),
      ev('failed', 'clip_b', 131, 'ffmpeg exited with code 1'),
    ];
    const f = workerFigures(events, FROM, TO, POOL);
    expect(f.metrics.invocations).toEqual({ total: 2, period: 'last 60 minutes' });
    expect(f.metrics.errors).toEqual({ total: 1, errorRate: 50 });
    expect(f.metrics.duration).toEqual({ average: 20000, maximum: 30000 });
    expect(f.metrics.concurrentExecutions).toBe(1);
    expect(f.metrics.throttles).toBe(0);
    // $0.20 per million requests + 40 s x 2 GB x $0.0000166667
    expect(f.cost.requestCost).toBeCloseTo(0.0000004, 10);
    expect(f.cost.computeCost).toBeCloseTo(40 * 2 * 0.0000166667, 10);
    expect(f.cost.totalCost).toBeCloseTo(f.cost.requestCost + f.cost.computeCost, 10);
    expect(f.recentErrors).toEqual([{ requestId: 'clip_b', jobId: 'clip_b', timestamp: at(131).toISOString(), message: 'ffmpeg exited with code 1' }]);
  });

  it('counts overlapping attempts and jobs that waited for a worker', () => {
    const events = [
      ev('requested', 'a', 0),
      ev('started', 'a', 0.1),
      ev('completed', 'a', 60),
      ev('requested', 'b', 1),
      ev('started', 'b', 1.2),
      ev('completed', 'b', 30),
      // waits for a free worker: starts 59 s after it was asked for
      ev('requested', 'c', 1),
      ev('started', 'c', 60),
      ev('completed', 'c', 90),
    ];
    const f = workerFigures(events, FROM, TO, POOL);
    expect(f.metrics.concurrentExecutions).toBe(2);
    expect(f.metrics.throttles).toBe(1);
  });

  it('retries are attempts of their own; a running attempt counts until now but has no duration yet', () => {
    const events = [ev('started', 'r', 10), ev('failed', 'r', 12, 'killed'), ev('started', 'r', 20), ev('started', 'open', 3000)];
    const f = workerFigures(events, FROM, TO, POOL);
    expect(f.metrics.invocations.total).toBe(3);
    expect(f.metrics.duration).toEqual({ average: 2000, maximum: 2000 });
  });

  it('leaves attempts started before the period out of the invocations, and errors older than 24 h out of the list', () => {
    const events = [ev('started', 'old', -7200), ev('completed', 'old', -7100), ev('failed', 'old2', -90000, 'too old'), ev('failed', 'day', -3600, 'within a day')];
    const f = workerFigures(events, FROM, TO, POOL);
    expect(f.metrics.invocations.total).toBe(0);
    expect(f.metrics.errors).toEqual({ total: 0, errorRate: 0 });
    expect(f.recentErrors.map((e) => e.message)).toEqual(['within a day']);
  });

  it('lists at most 10 recent errors, newest first, with request ids cut to 12 characters', () => {
    const events = Array.from({ length: 14 }, (_, i) => ev('failed', `render_${String(i).padStart(2, '0')}_abcdefgh`, i * 10, `e${i}`));
    const f = workerFigures(events, FROM, TO, POOL);
    expect(f.recentErrors).toHaveLength(10);
    expect(f.recentErrors[0]).toMatchObject({ requestId: 'render_13_ab', message: 'e13' });
  });

  it('an empty pool name means the pool is not configured', () => {
    expect(workerFigures([], FROM, TO, { ...POOL, functionName: '' }).enabled).toBe(false);
  });
});

describe('mostAtOnce', () => {
  it('frees a worker before the next start at the same instant', () => {
    expect(mostAtOnce([{ start: 0, end: 10 }, { start: 10, end: 20 }], 0, 100)).toBe(1);
    expect(mostAtOnce([{ start: 0, end: 10 }, { start: 5, end: 20 }, { start: 6, end: 7 }], 0, 100)).toBe(3);
    expect(mostAtOnce([{ start: -50, end: -10 }], 0, 100)).toBe(0);
  });
});
