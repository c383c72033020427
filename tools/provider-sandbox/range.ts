/** HTTP Range parsing for the sandbox's media files (RFC 9110 §14; a single byte range). */

export type RangeResult =
  /** no Range header, or one we ignore (not bytes, several ranges): serve the whole file */
  | { kind: 'full' }
  | { kind: 'partial'; start: number; end: number }
  /** 416 Range Not Satisfiable */
  | { kind: 'unsatisfiable' };

export function parseRange(header: string | undefined, size: number): RangeResult {
  if (!header) return { kind: 'full' };
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m) return header.trim().startsWith('bytes=') && header.includes(',') ? { kind: 'full' } : { kind: 'unsatisfiable' };
  const [, first, last] = m;
  if (first === '' && last === '') return { kind: 'unsatisfiable' };
  if (first === '') {
    // suffix range: the last N bytes
    const n = Number(last);
    if (n === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (start >= size || start > end) return { kind: 'unsatisfiable' };
  return { kind: 'partial', start, end };
}
