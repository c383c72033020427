import { AnalysisFailedError, failureMessage, followAnalysis } from './api';

const status = (s: string, progress = 0, error: string | null = null) => ({ status: s, progress, message: `at ${progress}`, error });

describe('followAnalysis', () => {
  it('asks until the job completes, passing on its progress', async () => {
    const answers = [status('pending'), status('processing', 40), status('processing', 80), status('completed', 100)];
    const asked: string[] = [];
    const heard: number[] = [];
    await followAnalysis('keymoments_1', async (id) => (asked.push(id), answers.shift()!), { sleep: async () => undefined, progress: (p) => heard.push(p) });
    expect(asked).toHaveLength(4);
    expect(heard).toEqual([0, 40, 80, 100]);
  });

  it("throws the job's error, or says it was cancelled, in words the panel shows", async () => {
    const failed = followAnalysis('j', async () => status('error', 50, 'Key moments could not be found: disk full'), { sleep: async () => undefined });
    await expect(failed).rejects.toBeInstanceOf(AnalysisFailedError);
    const err = await failed.catch((e: unknown) => e);
    expect(failureMessage(err, 'Failed to analyze video')).toBe('Key moments could not be found: disk full');
    await expect(followAnalysis('j', async () => status('cancelled'), { sleep: async () => undefined })).rejects.toThrow('The analysis was cancelled.');
    await expect(followAnalysis('j', async () => status('error'), { sleep: async () => undefined })).rejects.toThrow('Failed to analyze video');
  });

  it('gives up after its time limit', async () => {
    await expect(followAnalysis('j', async () => status('processing', 10), { sleep: async () => undefined, maxMs: -1 })).rejects.toThrow('The analysis is taking too long. Please try again later.');
  });
});
