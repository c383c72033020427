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

/** A whole count with thousands separators ("1,234"). */
export function formatCount(n: number | null | undefined): string {
  return typeof n === 'number' && Number.isFinite(n) ? n.toLocaleString('en-US') : '0';
}

/** A percentage with a fixed number of decimals ("0.40%"). */
export function formatPercent(value: number, decimals = 2): string {
  return Number.isFinite(value) ? `${value.toFixed(decimals)}%` : 'N/A';
}

/** Milliseconds, whole, with separators ("1,234 ms"). */
export function formatMs(ms: number): string {
  return Number.isFinite(ms) ? `${Math.round(ms).toLocaleString('en-US')} ms` : 'N/A';
}

/** The server's uptime in whole minutes ("42 minutes"). */
export function formatUptime(seconds: number | null | undefined): string {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0) return 'N/A';
  return plural(Math.floor(seconds / 60), 'minute');
}

/** Memory used / total with its unit ("512 / 2,048 MB"). */
export function formatMemory(memory: { used: number; total: number; unit: string }): string {
  const n = (v: number) => v.toLocaleString('en-US', { maximumFractionDigits: 1 });
  return `${n(memory.used)} / ${n(memory.total)} ${memory.unit}`;
}

/** Ids are shown by their first characters: a worker request id by 12, a job id by 8. */
export const REQUEST_ID_CHARS = 12;
export const JOB_ID_CHARS = 8;

/** The first characters of an id. */
export function shortId(id: string, length: number): string {
  return id.slice(0, length);
}

const RELATIVE = new Intl.RelativeTimeFormat('en-US', { numeric: 'always' });
const RELATIVE_UNITS: readonly (readonly [Intl.RelativeTimeFormatUnit, number])[] = [
  ['year', 365 * 86_400],
  ['month', 30 * 86_400],
  ['week', 7 * 86_400],
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
];

/** "3 minutes ago" (or "in 3 minutes"); under a minute "just now"; an unparseable value is shown as it came. */
export function formatRelativeTime(value: string, now: number = Date.now()): string {
  const at = new Date(value).getTime();
  if (Number.isNaN(at)) return value;
  const seconds = Math.round((at - now) / 1000);
  const abs = Math.abs(seconds);
  for (const [unit, size] of RELATIVE_UNITS) {
    if (abs >= size) return RELATIVE.format(Math.trunc(seconds / size), unit);
  }
  return 'just now';
}

/** An error log's severity in words ('warn' reads 'Warning'). */
export const SEVERITY_LABELS: Record<string, string> = { error: 'Error', warn: 'Warning', fatal: 'Fatal' };

/** A webhook's payload as pretty JSON (a JSON string is parsed first; nothing reads 'No payload'). */
export function formatPayload(payload: unknown): string {
  if (payload === undefined || payload === null || payload === '') return 'No payload';
  if (typeof payload === 'string') {
    try {
      return JSON.stringify(JSON.parse(payload) as unknown, null, 2);
    } catch {
      return payload;
    }
  }
  try {
    return JSON.stringify(payload, null, 2) ?? String(payload);
  } catch {
    return String(payload);
  }
}

/** Error messages longer than this show their start, with the whole text on request. */
export const MESSAGE_PREVIEW_CHARS = 240;

/** The start of a long message, cut at a word where one is near, with an ellipsis; short ones whole. */
export function messagePreview(message: string, max = MESSAGE_PREVIEW_CHARS): string {
  if (message.length <= max) return message;
  const cut = message.lastIndexOf(' ', max);
  return `${message.slice(0, cut > max * 0.75 ? cut : max).trimEnd()}…`;
}
