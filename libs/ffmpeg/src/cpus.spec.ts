import { availableParallelism } from 'node:os';
import { cpusFromQuota, machineCpus, parseCpuMax } from './cpus';

describe('CPUs from the container limit', () => {
  it('reads cgroup v2 cpu.max and v1 quota/period, rounding a part CPU up', () => {
    expect(parseCpuMax('200000 100000\n')).toBe(2);
    expect(parseCpuMax('150000 100000')).toBe(2);
    expect(parseCpuMax('50000 100000')).toBe(1);
    expect(parseCpuMax('max 100000')).toBeNull();
    expect(parseCpuMax('')).toBeNull();
    expect(cpusFromQuota(400000, 100000)).toBe(4);
    expect(cpusFromQuota(-1, 100000)).toBeNull();
    expect(cpusFromQuota(null, null)).toBeNull();
  });

  it('is at least one and at most what the machine has', () => {
    const n = machineCpus();
    expect(n).toBeGreaterThanOrEqual(1);
    expect(n).toBeLessThanOrEqual(availableParallelism());
  });
});
