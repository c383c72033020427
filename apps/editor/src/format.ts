/** Display formats of seed 000 §9 and seed 002 (sizes in MB with 2 decimals, GB above 1 GiB). */

/** Under 60 s: seconds; otherwise minutes and seconds ('1m 05s'), hours above an hour. */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return 'N/A';
  if (seconds < 60) return `${Number(seconds.toFixed(seconds < 10 ? 2 : 1))} s`;
  const total = Math.round(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h > 0) return `${h}h ${m}m ${String(s).padStart(2, '0')}s`;
  return `${m}m ${String(s).padStart(2, '0')}s`;
}

const GIB = 1024 ** 3;
const MIB = 1024 ** 2;

export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return 'N/A';
  if (bytes > GIB) return `${(bytes / GIB).toFixed(2)} GB`;
  if (bytes >= MIB / 100) return `${(bytes / MIB).toFixed(2)} MB`;
  return `${bytes} bytes`;
}

export function formatBitRate(bitsPerSecond: number): string {
  if (bitsPerSecond >= 1_000_000) return `${(bitsPerSecond / 1_000_000).toFixed(2)} Mb/s`;
  return `${Math.round(bitsPerSecond / 1000)} kb/s`;
}

export function formatRate(value: number, unit: 'fps' | 'Hz'): string {
  const rounded = unit === 'fps' ? Number(value.toFixed(2)) : Math.round(value);
  return `${rounded} ${unit}`;
}
