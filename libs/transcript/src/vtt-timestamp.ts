/**
 * "Collect a WebVTT timestamp" (W3C WebVTT, the parser algorithm), by index scanning: used for cue
 * timings and for the timestamps inside cue text (`<00:00:01.500>`).
 *
 * Hours are optional; when the first number is not exactly two digits or is over 59 it is read as
 * hours, and then minutes and seconds must follow (`1:02:03.000` is 1 h 2 min 3 s; `1:00.000` fails).
 * Minutes and seconds have exactly two digits and are at most 59; the fraction has exactly three
 * digits after a '.'.
 */

export type TimestampResult =
  /** seconds, and the index just after the timestamp */
  | { ok: true; seconds: number; end: number }
  /** why it is not a timestamp, for a warning */
  | { ok: false; reason: string };

const COLON = 58;
const DOT = 46;
const COMMA = 44;

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** The index after the run of ASCII digits starting at `from`. */
function digitsEnd(s: string, from: number): number {
  let i = from;
  while (i < s.length && isDigit(s.charCodeAt(i))) i++;
  return i;
}

const fail = (reason: string): TimestampResult => ({ ok: false, reason });

/** Read a timestamp at `pos` of `s`. */
export function collectTimestamp(s: string, pos: number): TimestampResult {
  if (pos >= s.length || !isDigit(s.charCodeAt(pos))) return fail('it must start with a digit');
  let p = digitsEnd(s, pos);
  const first = s.slice(pos, p);
  const value1 = Number(first);
  const hours = first.length !== 2 || value1 > 59;
  if (s.charCodeAt(p) !== COLON) return fail('minutes and seconds are written mm:ss');
  p++;
  let q = digitsEnd(s, p);
  if (q - p !== 2) return fail('minutes and seconds have two digits each');
  let value2 = Number(s.slice(p, q));
  p = q;
  let value3: number;
  let h: number;
  if (hours || s.charCodeAt(p) === COLON) {
    if (s.charCodeAt(p) !== COLON) return fail(`'${first.length > 8 ? `${first.slice(0, 8)}…` : first}' can only be hours, so ':mm:ss' must follow it`);
    p++;
    q = digitsEnd(s, p);
    if (q - p !== 2) return fail('minutes and seconds have two digits each');
    value3 = Number(s.slice(p, q));
    p = q;
    h = value1;
  } else {
    value3 = value2;
    value2 = value1;
    h = 0;
  }
  const separator = s.charCodeAt(p);
  if (separator !== DOT) return fail(separator === COMMA ? "the milliseconds follow a '.', not a ','" : "the seconds must be followed by '.' and three digits");
  p++;
  q = digitsEnd(s, p);
  if (q - p !== 3) return fail('the milliseconds need exactly three digits');
  const ms = Number(s.slice(p, q));
  if (value2 > 59 || value3 > 59) return fail('minutes and seconds go up to 59');
  const seconds = h * 60 * 60 + value2 * 60 + value3 + ms / 1000;
  if (!Number.isFinite(seconds)) return fail('the hours are out of range');
  return { ok: true, seconds, end: q };
}

/** hh:mm:ss.mmm */
export function formatTimestamp(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}.${pad(ms % 1000, 3)}`;
}
