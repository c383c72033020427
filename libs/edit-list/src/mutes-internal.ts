/** Mute normalisation shared by the edits: sorted, non-overlapping, touching same-level mutes merged. */
import type { SourceMute, SourceSegment } from './types';

/**
 * Sorts mutes and merges touching or overlapping ones of the same level. Callers guarantee that
 * mutes of different levels do not overlap.
 */
export function normaliseMutes(mutes: readonly SourceMute[]): SourceMute[] {
  const sorted = mutes.filter((m) => m.end > m.start).sort((a, b) => a.start - b.start || a.end - b.end);
  const out: SourceMute[] = [];
  for (const m of sorted) {
    const prev = out[out.length - 1];
    if (prev && prev.level === m.level && m.start <= prev.end) prev.end = Math.max(prev.end, m.end);
    else out.push({ start: m.start, end: m.end, level: m.level });
  }
  return out;
}

/** The parts of the mutes that lie inside the given source ranges (any order, non-overlapping). */
export function clipMutes(mutes: readonly SourceMute[], ranges: readonly SourceSegment[]): SourceMute[] {
  const sorted = [...ranges].sort((a, b) => a.start - b.start);
  const out: SourceMute[] = [];
  for (const m of mutes) {
    for (const r of sorted) {
      if (r.start >= m.end) break;
      const start = Math.max(m.start, r.start);
      const end = Math.min(m.end, r.end);
      if (end > start) out.push({ start, end, level: m.level });
    }
  }
  return normaliseMutes(out);
}

/** The parts of the mutes outside the given source ranges (sorted by start, merged). */
export function subtractFromMutes(mutes: readonly SourceMute[], holes: readonly SourceSegment[]): SourceMute[] {
  const out: SourceMute[] = [];
  for (const m of mutes) {
    let from = m.start;
    for (const h of holes) {
      if (h.end <= from) continue;
      if (h.start >= m.end) break;
      if (h.start > from) out.push({ start: from, end: h.start, level: m.level });
      from = Math.max(from, h.end);
      if (from >= m.end) break;
    }
    if (m.end > from) out.push({ start: from, end: m.end, level: m.level });
  }
  return out;
}
