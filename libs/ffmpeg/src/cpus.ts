import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/**
 * CPUs a cgroup quota allows, from cgroup v2 `cpu.max` ("200000 100000" = 2) or v1's quota and
 * period in microseconds; null when there is no limit.
 */
export function cpusFromQuota(quotaUs: number | null, periodUs: number | null): number | null {
  if (quotaUs === null || periodUs === null || quotaUs <= 0 || periodUs <= 0) return null;
  return Math.max(1, Math.ceil(quotaUs / periodUs));
}

export function parseCpuMax(text: string): number | null {
  const [quota, period] = text.trim().split(/\s+/);
  if (!quota || quota === 'max') return null;
  return cpusFromQuota(Number(quota), Number(period ?? 100000));
}

function readNumber(path: string): number | null {
  try {
    const n = Number(readFileSync(path, 'utf8').trim());
    return Number.isFinite(n) ? n : null;
  } catch {
    return null;
  }
}

function cgroupCpus(): number | null {
  try {
    return parseCpuMax(readFileSync('/sys/fs/cgroup/cpu.max', 'utf8'));
  } catch {
    return cpusFromQuota(readNumber('/sys/fs/cgroup/cpu/cpu.cfs_quota_us'), readNumber('/sys/fs/cgroup/cpu/cpu.cfs_period_us'));
  }
}

let cached: number | null = null;

/**
 * The CPUs this process may use: the machine's, or fewer when its container's CPU limit says so
 * (a pod limited to 2 CPUs on a 64-core node must not start 64 encoder threads).
 */
export function machineCpus(): number {
  cached ??= Math.max(1, Math.min(availableParallelism(), cgroupCpus() ?? Infinity));
  return cached;
}
