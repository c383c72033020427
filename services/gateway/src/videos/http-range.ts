/**
 * HTTP Range for media streaming (RFC 9110 §14). Only one range per request is served: a
 * multi-range or overlapping request is refused with 416 rather than amplified into many
 * reads of the object (a classic denial-of-service vector), and browsers never send one for
 * media anyway.
 */
export type RangeDecision =
  | { kind: 'full' }
  | { kind: 'partial'; start: number; end: number }
  | { kind: 'unsatisfiable'; reason: string };

export function decideRange(header: string | undefined, size: number): RangeDecision {
  if (header === undefined || header.trim() === '') return { kind: 'full' };
  const m = /^\s*bytes\s*=\s*(.+)$/i.exec(header);
  // another unit: ignore the header and send the whole representation, as the RFC says
  if (!m) return { kind: 'full' };
  const specs = m[1]!.split(',').map((s) => s.trim()).filter(Boolean);
  if (specs.length !== 1) return { kind: 'unsatisfiable', reason: 'Only one byte range per request is served.' };
  const spec = specs[0]!;
  const r = /^(\d*)-(\d*)$/.exec(spec);
  if (!r || (r[1] === '' && r[2] === '')) return { kind: 'unsatisfiable', reason: `Malformed range '${spec}'.` };
  if (size === 0) return { kind: 'unsatisfiable', reason: 'The object is empty.' };
  if (r[1] === '') {
    // suffix range: the last N bytes
    const n = Number(r[2]);
    if (n === 0) return { kind: 'unsatisfiable', reason: 'An empty suffix range selects nothing.' };
    return { kind: 'partial', start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(r[1]);
  const end = r[2] === '' ? size - 1 : Math.min(Number(r[2]), size - 1);
  if (!Number.isSafeInteger(start) || start >= size) return { kind: 'unsatisfiable', reason: `Range start ${start} is past the end (${size} bytes).` };
  if (end < start) return { kind: 'unsatisfiable', reason: `Range end is before its start in '${spec}'.` };
  return { kind: 'partial', start, end };
}

/** Whether a conditional `If-None-Match` matches the ETag (weak comparison, `*` matches). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const strip = (t: string) => t.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((t) => t.trim() === '*' || strip(t) === strip(etag));
}
