/**
 * KeyMomentStore against a real Postgres: moments answer their video's owner only, and only while
 * the video and its transcript are at the versions they were found for; the first analysis of a
 * version stays, a late one of an older version is not kept, and they go with their video.
 */
import type { KeyMoment } from '@wordcut/contracts';
import { randomUUID } from 'node:crypto';
import { gatewayTestDatabase } from '../../../../tools/testing/gateway-database';
import { KeyMomentStore } from './key-moment-store';

const database = gatewayTestDatabase(4);
const store = database.store(KeyMomentStore);

const video = (ownerId?: string): Promise<string> => database.insertVideo(ownerId);

const moment = (title: string, startTime: number): KeyMoment => ({
  id: randomUUID(),
  title,
  description: 'said',
  category: 'Quotable',
  engagement: 70,
  startTime,
  endTime: startTime + 20,
  duration: 20,
  reasons: ['a line'],
});
const count = async (id: string) => Number(((await database.ds.query(`SELECT count(*) AS n FROM library.key_moments WHERE video_id = $1`, [id])) as { n: string }[])[0]!.n);

describe('KeyMomentStore', () => {
  it("answers the current version's moments in their order, to the video's owner only", async () => {
    const id = await video();
    const moments = [moment('b', 40), moment('a', 0)];
    const stored = await store.put(id, 0, 1, 'rules=1', moments, 'local');
    expect(stored.moments).toEqual(moments);
    expect(await store.current(id, 'owner-a', 'rules=1')).toEqual({ moments, analysedAt: stored.analysedAt, source: 'local' });
    expect(await store.current(id, 'owner-b', 'rules=1')).toBeNull();
    expect(await store.current(id, 'owner-a', 'rules=2')).toBeNull();
  });

  it('answers one moment, its video and the edit version it was found on, to the owner only', async () => {
    const id = await video();
    const moments = [moment('b', 40), moment('a', 0)];
    await store.put(id, 3, 1, 'rules=1', moments, 'local');
    expect(await store.owned(moments[1]!.id, 'owner-a')).toEqual({ moment: moments[1], videoId: id, editVersion: 3 });
    expect(await store.owned(moments[1]!.id, 'owner-b')).toBeNull();
    expect(await store.owned(randomUUID(), 'owner-a')).toBeNull();
  });

  it('keeps the first analysis of a version: a concurrent second one answers it', async () => {
    const id = await video();
    const first = [moment('first', 0)];
    const [a, b] = await Promise.all([store.put(id, 0, 1, 'rules=1', first, 'llm'), store.put(id, 0, 1, 'rules=1', [moment('second', 0)], 'local')]);
    expect(a).toEqual(b);
    expect(await count(id)).toBe(1);
  });

  it('answers nothing for a new version, replaces older versions, and keeps a newer one over a late older one', async () => {
    const id = await video();
    await store.put(id, 0, 1, 'rules=1', [moment('old', 0)], 'local');
    await database.ds.query(`UPDATE library.transcripts SET version = 2 WHERE video_id = $1`, [id]);
    expect(await store.current(id, 'owner-a', 'rules=1')).toBeNull();
    const newer = [moment('new', 0), moment('new 2', 30)];
    await store.put(id, 0, 2, 'rules=1', newer, 'local');
    expect((await store.current(id, 'owner-a', 'rules=1'))!.moments).toEqual(newer);
    expect(await count(id)).toBe(2);
    const late = await store.put(id, 0, 1, 'rules=1', [moment('late', 0)], 'local');
    expect(late.moments[0]!.title).toBe('late');
    expect((await store.current(id, 'owner-a', 'rules=1'))!.moments).toEqual(newer);
  });

  it('drops them with their video', async () => {
    const id = await video();
    await store.put(id, 0, 1, 'rules=1', [moment('a', 0)], 'local');
    await database.ds.query(`DELETE FROM library.videos WHERE id = $1`, [id]);
    expect(await count(id)).toBe(0);
  });
});
