import { EXPORT_JOBS_STORAGE_KEY, TRACKED_EXPORT_TTL_MS, readTrackedExports, trackExport, trackedExportOf, untrackExport } from './tracked-exports';

const NOW = Date.UTC(2025, 2, 1, 10);

describe('followed exports (kept across reloads, one per video)', () => {
  it('has its own storage key', () => {
    expect(EXPORT_JOBS_STORAGE_KEY).toBe('wordcut_export_jobs');
  });

  it('tracks one export per video; the newest replaces the older; untracking removes it by job id', () => {
    let m = trackExport({}, 'v1', 'export_a', NOW);
    m = trackExport(m, 'v2', 'export_b', NOW + 1);
    m = trackExport(m, 'v1', 'export_c', NOW + 2);
    expect(trackedExportOf(m, 'v1')).toBe('export_c');
    expect(trackedExportOf(m, 'v2')).toBe('export_b');
    m = untrackExport(m, 'export_b');
    expect(trackedExportOf(m, 'v2')).toBeNull();
    expect(untrackExport(m, 'export_unknown')).toEqual(m);
  });

  it('round-trips through its JSON form and drops expired records', () => {
    const m = trackExport(trackExport({}, 'v1', 'export_a', NOW - TRACKED_EXPORT_TTL_MS), 'v2', 'export_b', NOW - 1000);
    const raw = JSON.stringify(m);
    expect(readTrackedExports(raw, NOW)).toEqual({ v2: { jobId: 'export_b', startedAt: NOW - 1000 } });
    expect(readTrackedExports(raw, NOW - 10_000)).toEqual(m);
    // tracking again prunes what expired
    expect(Object.keys(trackExport(m, 'v3', 'export_c', NOW))).toEqual(['v2', 'v3']);
  });

  it.each([null, '', 'not json', '[]', '42', 'null', '"x"'])('reads %p as nothing followed', (raw) => {
    expect(readTrackedExports(raw, NOW)).toEqual({});
  });

  it('drops malformed records and keeps the good ones', () => {
    const raw = JSON.stringify({
      ok: { jobId: 'export_1', startedAt: NOW },
      noId: { startedAt: NOW },
      badId: { jobId: '../x', startedAt: NOW },
      badTime: { jobId: 'export_2', startedAt: 'yesterday' },
      future: { jobId: 'export_3', startedAt: NOW + 3_600_000 },
      notObject: 'export_4',
    });
    expect(readTrackedExports(raw, NOW)).toEqual({ ok: { jobId: 'export_1', startedAt: NOW } });
  });
});
