/**
 * Load: 50 editors, each on a video of their own (3,000 words), saving a word edit about once a
 * second (as a quick editor does) while 4 renders
 * run on the same machine. Every save must land exactly once (no error, the versions count every
 * save, the stored words are the last ones sent) and every render must complete. The save
 * latencies are printed; their targets (ADR 0007) were the benchmark's section 4, archived in git tag
 * bench-archive-2026-12 (docs/BENCHMARKS.md).
 * Requires the services to be built (`npm run build:services`).
 */
import { transcriptSchema, videoSchema } from '@wordcut/contracts';
import { providerOwnerId } from '@wordcut/provider';
import { percentile } from '../bench/common';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../stack/stack';
import { runEditingLoad, seedEditors, type LoadEditor, type SaveOutcome } from '../testing/editing-load';
import { eventually } from '../testing/env';
import { bearer, startGatewaySession } from '../testing/identity';
import { startSystem, type TestSystem } from './system';

const PORTS = { gateway: 14400, media: 14401, jobs: 14402, export: 14403, analytics: 14404 };
const MEDIA = join(ROOT, '.data', 'test-media');
const EDITORS = 50;
const RENDERS = 4;
const WORDS = 3000;

describe('50 editors saving while 4 renders run', () => {
  let sys: TestSystem;
  let editors: LoadEditor[];
  const renderVideos: Array<{ token: string; id: string }> = [];

  beforeAll(async () => {
    execFileSync('bash', [join(ROOT, 'tools/media/generate-test-media.sh'), MEDIA], { stdio: 'ignore' });
    sys = await startSystem({ name: 'load', ports: PORTS });
    const gatewayUrl = sys.stack.services.gateway.url;
    for (let i = 0; i < RENDERS; i++) {
      const s = await startGatewaySession(gatewayUrl);
      const form = new FormData();
      form.append('video', new Blob([new Uint8Array(readFileSync(join(MEDIA, 'demo.mp4')))], { type: 'video/mp4' }), `render-${i}.mp4`);
      form.append('vtt', new Blob([readFileSync(join(MEDIA, 'demo.vtt'), 'utf8')], { type: 'text/vtt' }), 'demo.vtt');
      const up = await fetch(sys.api('/api/videos/upload'), { method: 'POST', headers: bearer(s.token), body: form });
      expect(up.status).toBe(201);
      renderVideos.push({ token: s.token, id: ((await up.json()) as { id: string }).id });
    }
    for (const v of renderVideos) {
      await eventually(async () => {
        const got = videoSchema.parse(await (await fetch(sys.api(`/api/videos/${v.id}`), { headers: bearer(v.token) })).json());
        return got.status === 'completed' ? got : undefined;
      }, 120_000, 'an upload to render is ready');
    }
    const owners = await Promise.all(
      Array.from({ length: EDITORS }, async (_, i) => {
        const sub = `load-editor-${i}`;
        // provider users own under the sandbox's issuer
        return { ownerId: providerOwnerId(sys.sandbox.issuer, sub), token: await sys.sandbox.signToken({ sub, sessionId: `load-${i}`, videoId: `load-${i}` }, { expiresInSec: 3600 }) };
      }),
    );
    editors = await seedEditors({ databaseUrl: sys.env.DATABASE_URL, owners, words: WORDS });
  }, 300_000);

  afterAll(async () => {
    await sys?.close();
  });

  it('lands every save exactly once and completes every render', async () => {
    const gatewayUrl = sys.stack.services.gateway.url;
    const quiet = await runEditingLoad({ gatewayUrl, editors, savesPerEditor: 4, thinkMs: 1000, seed: 1 });

    const jobs = await Promise.all(
      renderVideos.map(async (v) => {
        const res = await fetch(sys.api(`/api/videos/${v.id}/apply-cuts`), {
          method: 'POST',
          headers: { ...bearer(v.token), 'content-type': 'application/json' },
          body: JSON.stringify({ cuts: [{ start: 2, end: 3.5 }, { start: 10, end: 12.25 }] }),
        });
        expect(res.status).toBe(202);
        return { ...v, jobId: ((await res.json()) as { jobId: string }).jobId };
      }),
    );
    const loaded = await runEditingLoad({ gatewayUrl, editors, savesPerEditor: 12, thinkMs: 1000, seed: 2 });
    const finished = await Promise.all(
      jobs.map((j) =>
        eventually(async () => {
          const job = (await (await fetch(sys.api(`/api/video-processing/jobs/${j.jobId}`), { headers: bearer(j.token) })).json()) as { status: string; error?: string };
          return ['completed', 'failed', 'error', 'cancelled'].includes(job.status) ? job : undefined;
        }, 240_000, `render ${j.jobId}`),
      ),
    );

    const report = (name: string, saves: SaveOutcome[]) =>
      `${name}: ${saves.length} saves, p50 ${percentile(saves.map((s) => s.ms), 50).toFixed(1)} ms, p95 ${percentile(saves.map((s) => s.ms), 95).toFixed(1)} ms, max ${Math.max(...saves.map((s) => s.ms)).toFixed(1)} ms`;
    console.log(`${report('quiet', quiet.saves)}\n${report(`with ${RENDERS} renders`, loaded.saves)}`);

    expect(finished.map((j) => j.status)).toEqual(Array(RENDERS).fill('completed'));
    expect([...quiet.saves, ...loaded.saves].filter((s) => s.status !== 200)).toEqual([]);
    expect(loaded.saves).toHaveLength(EDITORS * 12);

    // each transcript's version counts its saves, and holds the last text sent for each word
    for (const [i, e] of editors.entries()) {
      const res = await fetch(sys.api(`/api/videos/${e.videoId}/transcript`), { headers: bearer(e.token) });
      expect(res.status).toBe(200);
      const t = transcriptSchema.parse(await res.json());
      expect(t.version).toBe(1 + 4 + 12);
      expect(t.version).toBe(e.version);
      const last = new Map([...quiet.lastTexts[i]!, ...loaded.lastTexts[i]!]);
      for (const [order, text] of last) expect(t.words[order]!.text).toBe(text);
    }
  }, 600_000);
});
