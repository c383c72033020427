import { VTT_METHOD_UPLOAD } from '@wordcut/contracts';
import { READY_VTT_METHOD, durationLabel, lastSavedLabel, nextZoomLevel, vttStatusLabel } from './footer';

describe('footer', () => {
  it('cycles the zoom 100% -> 200% -> 400% -> 100%', () => {
    const seen = [100];
    for (let i = 0; i < 4; i += 1) seen.push(nextZoomLevel(seen[seen.length - 1]!));
    expect(seen).toEqual([100, 200, 400, 100, 200]);
  });

  it('returns to 100% from 400% or more, and from nonsense', () => {
    expect(nextZoomLevel(800)).toBe(100);
    expect(nextZoomLevel(300)).toBe(400);
    expect(nextZoomLevel(0)).toBe(100);
    expect(nextZoomLevel(Number.NaN)).toBe(100);
  });

  it("says 'Ready' only for the 'VTT Upload' method", () => {
    expect(READY_VTT_METHOD).toBe(VTT_METHOD_UPLOAD);
    expect(vttStatusLabel('VTT Upload')).toBe('Ready');
    expect(vttStatusLabel('Whisper')).toBe('Configuring');
    expect(vttStatusLabel(undefined)).toBe('Configuring');
  });

  it('formats the duration and the last-saved time', () => {
    expect(durationLabel(null)).toBe('N/A');
    expect(durationLabel(42.4)).toBe('42.4 s');
    expect(durationLabel(95)).toBe('1m 35s');
    expect(lastSavedLabel(null)).toBe('Never');
    expect(lastSavedLabel('not a date')).toBe('not a date');
    const iso = '2025-03-04T10:07:00.000Z';
    expect(lastSavedLabel(iso, 'en-GB')).toBe(new Date(iso).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' }));
  });
});
