/** The dashboard's display formats: pure, unit-tested. */

const GIB = 1024 ** 3;
const MIB = 1024 ** 2;

/** Seconds as m:ss ('N/A' when unknown). */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return 'N/A';
  const whole = Math.floor(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

/** Bytes in MB with 2 decimals, or GB above 1 GiB ('N/A' when unknown). */
export function formatFileSize(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes) || bytes < 0) return 'N/A';
  if (bytes > GIB) return `${(bytes / GIB).toFixed(2)} GB`;
  return `${(bytes / MIB).toFixed(2)} MB`;
}

/** The owner's id, or 'Unknown' for a video without one. */
export function formatUser(userId: string | null | undefined): string {
  return userId ? userId : 'Unknown';
}

/** A date and time in the browser's locale; an unparseable value is shown as it came. */
export function formatDate(value: string, locale?: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return date.toLocaleString(locale, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}

/** "1 clip", "3 clips". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

/** The words of a video status and its badge colour. */
export const STATUS_LABELS: Record<string, string> = { uploaded: 'Uploaded', processing: 'Processing', completed: 'Completed', failed: 'Failed' };
