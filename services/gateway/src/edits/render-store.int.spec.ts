/**
 * RenderStore against a real Postgres: one active video render per video (the partial unique
 * index answers 23505; clip renders are not held to it), and the states a render moves through
 * (active → applied | failed | cancelled, each only from active).
 */
import { JOB_KINDS, excludeEachOther, type JobKind } from '@wordcut/contracts';
import { identityEditList } from '@wordcut/edit-list';
import { randomUUID } from 'node:crypto';
import { gatewayTestDatabase } from '../../../../tools/testing/gateway-database';
import { RenderStore, type NewRender } from './render-store';

const database = gatewayTestDatabase(4);
const renders = database.store(RenderStore);

async function video(): Promise<string> {
  const id = randomUUID();
  await database.ds.query(`INSERT INTO library.videos (id, title, original_name, filename, status, vtt_method, language_code) VALUES ($1, 't', 'o', 'f', 'completed', 'upload', 'en')`, [id]);
  return id;
}

function render(videoId: string, over: Partial<NewRender> = {}): NewRender {
  const kind = over.kind ?? 'cut';
  return { jobId: `${kind}_${randomUUID()}`, videoId, kind, userId: 'user-1', baseVersion: 2, base: identityEditList(10), next: identityEditList(10), clipId: null, ...over };
}

const insert = (r: NewRender) => database.ds.transaction((tx) => renders.insertActive(tx, r));

describe('RenderStore', () => {
  it('records an active render with its edit lists', async () => {
    const v = await video();
    const r = render(v, { next: { ...identityEditList(10), burnCaptions: true } });
    await insert(r);
    expect(await renders.get(r.jobId)).toMatchObject({
      job_id: r.jobId,
      video_id: v,
      kind: 'cut',
      state: 'active',
      user_id: 'user-1',
      base_edit_version: 2,
      base_edit: identityEditList(10),
      new_edit: { ...identityEditList(10), burnCaptions: true },
      clip_id: null,
    });
    expect(await renders.get('cut_unknown')).toBeNull();
  });

  it('refuses a second active video render of the same video with 23505, whatever its kind', async () => {
    const v = await video();
    await insert(render(v));
    await expect(insert(render(v, { kind: 'mute' }))).rejects.toMatchObject({ code: '23505' });
    // another video is free
    await expect(insert(render(await video()))).resolves.toBeUndefined();
  });

  it('holds the job-kind registry\'s exclusion rule: two active renders of a video conflict exactly when their kinds exclude each other', async () => {
    const rendered = (Object.keys(JOB_KINDS) as JobKind[]).filter((k) => ['version', 'clip'].includes(JOB_KINDS[k].family));
    for (const a of rendered) {
      for (const b of rendered) {
        const v = await video();
        await insert(render(v, { kind: a }));
        const second = await insert(render(v, { kind: b })).then(
          () => 'both',
          (e: { code?: string }) => (e.code === '23505' ? 'conflict' : String(e)),
        );
        expect({ a, b, second }).toEqual({ a, b, second: excludeEachOther(a, b) ? 'conflict' : 'both' });
      }
    }
  });

  it('lets clip renders run beside a video render and beside each other', async () => {
    const v = await video();
    const cut = render(v);
    await insert(cut);
    await insert(render(v, { kind: 'clip' }));
    await insert(render(v, { kind: 'clip' }));
    expect(await renders.activeVideoRender(v)).toBe(cut.jobId);
  });

  it('frees the video once its render is applied, failed or cancelled', async () => {
    const v = await video();
    const a = render(v);
    await insert(a);
    await renders.markApplied(a.jobId);
    const b = render(v);
    await insert(b);
    await renders.end(b.jobId, 'failed', 'Render failed');
    const c = render(v);
    await insert(c);
    await renders.end(c.jobId, 'cancelled', 'Cancelled');
    await insert(render(v));
    expect(((await database.ds.query(`SELECT state FROM library.renders WHERE video_id = $1 ORDER BY created_at`, [v])) as { state: string }[]).map((r) => r.state).sort()).toEqual(
      ['active', 'applied', 'cancelled', 'failed'],
    );
  });

  it('ends only an active render, answering its clip; a second end or one after applying changes nothing', async () => {
    const v = await video();
    const clipId = randomUUID();
    const clip = render(v, { kind: 'clip' });
    await insert(clip);
    await renders.setClip(clip.jobId, clipId);
    expect(await renders.end(clip.jobId, 'failed', 'broken source')).toEqual({ ended: true, clipId });
    expect(await renders.end(clip.jobId, 'cancelled', 'Cancelled')).toEqual({ ended: false, clipId: null });
    expect(await renders.get(clip.jobId)).toMatchObject({ state: 'failed', error: 'broken source' });
    const cut = render(v);
    await insert(cut);
    expect(await renders.end(cut.jobId, 'failed', 'x')).toEqual({ ended: true, clipId: null });
    const applied = render(v);
    await insert(applied);
    await renders.markApplied(applied.jobId);
    expect(await renders.end(applied.jobId, 'failed', 'late')).toEqual({ ended: false, clipId: null });
    expect(await renders.end('cut_unknown', 'failed', 'x')).toEqual({ ended: false, clipId: null });
  });

  it('applies only an active render', async () => {
    const v = await video();
    const r = render(v);
    await insert(r);
    await renders.end(r.jobId, 'cancelled', 'Cancelled');
    await renders.markApplied(r.jobId);
    expect((await renders.get(r.jobId))!.state).toBe('cancelled');
  });

  it('reads a state under a row lock inside a transaction', async () => {
    const v = await video();
    const r = render(v);
    await insert(r);
    const state = await database.ds.transaction(async (tx) => {
      const s = await renders.lockState(tx, r.jobId);
      // the lock holds: another connection cannot take it without waiting
      const [{ locked }] = (await database.ds.query(
        `SELECT NOT EXISTS (SELECT 1 FROM library.renders WHERE job_id = $1 FOR UPDATE SKIP LOCKED) AS locked`,
        [r.jobId],
      )) as [{ locked: boolean }];
      expect(locked).toBe(true);
      return s;
    });
    expect(state).toBe('active');
    expect(await database.ds.transaction((tx) => renders.lockState(tx, 'cut_unknown'))).toBeNull();
  });

  it('tells whether a video has any active render, and counts active renders per user', async () => {
    const v = await video();
    const user = `user-${randomUUID()}`;
    expect(await renders.hasActive(v)).toBe(false);
    const clip = render(v, { kind: 'clip', userId: user });
    await insert(clip);
    expect(await renders.hasActive(v)).toBe(true);
    expect(await renders.activeVideoRender(v)).toBeNull();
    await insert(render(v, { userId: user }));
    await insert(render(await video(), { userId: user }));
    expect(await renders.countActiveForUser(database.ds.manager, user)).toBe(3);
    await renders.end(clip.jobId, 'cancelled', 'Cancelled');
    expect(await renders.countActiveForUser(database.ds.manager, user)).toBe(2);
    expect(await renders.countActiveForUser(database.ds.manager, 'nobody')).toBe(0);
  });

  it('goes with its video', async () => {
    const v = await video();
    const r = render(v);
    await insert(r);
    await database.ds.query(`DELETE FROM library.videos WHERE id = $1`, [v]);
    expect(await renders.get(r.jobId)).toBeNull();
  });
});
