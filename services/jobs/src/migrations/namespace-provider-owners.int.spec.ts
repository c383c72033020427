/**
 * The owner-namespace migration of the jobs schema on a real Postgres: provider users' jobs move to
 * `provider:<issuer>:<sub>` (with the input they were recorded from), gateway sessions' jobs and
 * jobs without an owner stay, and production without the issuer refuses.
 */
import { providerOwnerId } from '@wordcut/provider';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { migratedDatabase, restoreEnvAfterEach } from '../../../../tools/testing/migrated-database';
import { SCHEMA } from '../config';
import { jobsDataSource } from '../data-source';
import { JobStore } from '../job-store';
import { NamespaceProviderOwners1795400000000 } from './1795400000000-NamespaceProviderOwners';

const ISSUER = 'https://id.example/provider';
const owner = (sub: string) => providerOwnerId(ISSUER, sub);

describe('NamespaceProviderOwners (jobs)', () => {
  const database = migratedDatabase(jobsDataSource, SCHEMA);
  let ds: DataSource;
  let store: JobStore;
  restoreEnvAfterEach('PROVIDER_JWT_ISSUER', 'NODE_ENV');

  beforeAll(() => {
    ds = database.ds();
    store = new JobStore(ds);
  });

  async function job(userId: string | null, inputUser: string | null = userId): Promise<string> {
    const id = `cut_${randomUUID()}`;
    const input = inputUser === null ? { videoId: randomUUID() } : { videoId: randomUUID(), userId: inputUser };
    await ds.query(`INSERT INTO jobs.jobs (id, kind, status, input, video_id, user_id) VALUES ($1, 'cut', 'completed', $2, $3, $4)`, [id, JSON.stringify(input), input.videoId, userId]);
    return id;
  }
  const ownerOf = async (id: string) =>
    ((await ds.query(`SELECT user_id, input->>'userId' AS input FROM jobs.jobs WHERE id = $1`, [id])) as [{ user_id: string | null; input: string | null }])[0];
  async function run(step: 'up' | 'down'): Promise<void> {
    const runner = ds.createQueryRunner();
    try {
      await new NamespaceProviderOwners1795400000000()[step](runner);
    } finally {
      await runner.release();
    }
  }

  it('does nothing without rows to rename, even in production without the issuer', async () => {
    const session = await job(`wordcut:${randomUUID()}`);
    process.env['NODE_ENV'] = 'production';
    delete process.env['PROVIDER_JWT_ISSUER'];
    await expect(run('up')).resolves.toBeUndefined();
    expect((await ownerOf(session)).user_id).toMatch(/^wordcut:/);
  });

  it("renames provider users' jobs under the issuer, keeps gateway sessions' and goes back", async () => {
    const session = `wordcut:${randomUUID()}`;
    const provider = await job('user-42');
    const probe = await job('user-42', null);
    const upload = await job(session);
    const unowned = await job(null);
    const already = await job(owner('user-7'));

    process.env['NODE_ENV'] = 'production';
    delete process.env['PROVIDER_JWT_ISSUER'];
    await expect(run('up')).rejects.toThrow(/^NamespaceProviderOwners1795400000000: set PROVIDER_JWT_ISSUER/);
    expect((await ownerOf(provider)).user_id).toBe('user-42');

    process.env['PROVIDER_JWT_ISSUER'] = ISSUER;
    await run('up');
    expect(await ownerOf(provider)).toEqual({ user_id: 'provider:https%3A%2F%2Fid.example%2Fprovider:user-42', input: owner('user-42') });
    expect(await ownerOf(probe)).toEqual({ user_id: owner('user-42'), input: null });
    expect(await ownerOf(upload)).toEqual({ user_id: session, input: session });
    expect(await ownerOf(unowned)).toEqual({ user_id: null, input: null });
    expect(await ownerOf(already)).toEqual({ user_id: owner('user-7'), input: owner('user-7') });
    // the gateway asks for "my jobs" with the namespaced owner id
    expect((await store.listForUser(owner('user-42'), 10)).map((j) => j.id).sort()).toEqual([provider, probe].sort());
    expect(await store.listForUser('user-42', 10)).toEqual([]);

    await run('down');
    expect(await ownerOf(provider)).toEqual({ user_id: 'user-42', input: 'user-42' });
    expect(await ownerOf(probe)).toEqual({ user_id: 'user-42', input: null });
    expect(await ownerOf(upload)).toEqual({ user_id: session, input: session });
    expect((await ownerOf(already)).user_id).toBe('user-7');
  });
});
