/**
 * The owner-namespace migration of the export schema on a real Postgres: jobs and idempotency keys
 * move to `provider:<issuer>:<sub>`, quota counts and stored keys follow, rows already namespaced
 * stay, and production without the issuer refuses.
 */
import { providerOwnerId } from '@wordcut/provider';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { migratedDatabase, restoreEnvAfterEach } from '../../../../tools/testing/migrated-database';
import { SCHEMA } from '../config';
import { exportDataSource } from '../data-source';
import { ExportStore } from '../export-store';
import { NamespaceProviderOwners1764700000000 } from './1764700000000-NamespaceProviderOwners';

const ISSUER = 'https://id.example/provider';
const owner = (sub: string) => providerOwnerId(ISSUER, sub);

describe('NamespaceProviderOwners (export)', () => {
  const database = migratedDatabase(exportDataSource, SCHEMA);
  let ds: DataSource;
  let store: ExportStore;
  restoreEnvAfterEach('PROVIDER_JWT_ISSUER', 'NODE_ENV');

  beforeAll(() => {
    ds = database.ds();
    store = new ExportStore(ds);
  });

  async function job(userId: string, countsTowardQuota = true): Promise<string> {
    const id = `exp_${randomUUID()}`;
    await ds.query(
      `INSERT INTO export.export_jobs (id, user_id, video_id, session_id, status, request, caller, names, counts_toward_quota) VALUES ($1, $2, $3, 's1', 'completed', '{}', $4, '{}', $5)`,
      [id, userId, randomUUID(), JSON.stringify({ userId, plan: 'free', sessionId: 's1', providerVideoId: 'pv', token: '', uploadUrls: {} }), countsTowardQuota],
    );
    return id;
  }
  async function key(userId: string, k: string, jobId: string, fingerprint = 'f'): Promise<void> {
    await ds.query(`INSERT INTO export.idempotency_keys (user_id, key, fingerprint, job_id, response) VALUES ($1, $2, $3, $4, '{}')`, [userId, k, fingerprint, jobId]);
  }
  const ownerOf = async (id: string) =>
    ((await ds.query(`SELECT user_id, caller->>'userId' AS caller FROM export.export_jobs WHERE id = $1`, [id])) as [{ user_id: string; caller: string }])[0];
  const keys = async () => ((await ds.query(`SELECT user_id, key, fingerprint FROM export.idempotency_keys`)) as Array<{ user_id: string; key: string; fingerprint: string }>).sort((a, b) => a.key.localeCompare(b.key));
  const counts = (userId: string) => store.jobs.quotaCounts(userId, new Date(Date.now() - 3_600_000), new Date(Date.now() - 86_400_000));
  async function run(step: 'up' | 'down'): Promise<void> {
    const runner = ds.createQueryRunner();
    try {
      await new NamespaceProviderOwners1764700000000()[step](runner);
    } finally {
      await runner.release();
    }
  }

  it('does nothing without rows to rename, even in production without the issuer', async () => {
    process.env['NODE_ENV'] = 'production';
    delete process.env['PROVIDER_JWT_ISSUER'];
    await expect(run('up')).resolves.toBeUndefined();
  });

  it('renames bare subjects under the issuer, keeps the quota and the keys with them, and goes back', async () => {
    const lookalike = `wordcut:${randomUUID()}`;
    const first = await job('user-42');
    const second = await job('user-42');
    const retry = await job('user-42', false);
    const shaped = await job(lookalike);
    const already = await job(owner('user-7'));
    await key('user-42', 'k1', second);
    await key('user-7', 'k2', already, 'old');
    await key(owner('user-7'), 'k2', already, 'new');
    await key(lookalike, 'k3', shaped);
    expect(await counts('user-42')).toEqual({ exportsToday: 2, exportsThisMonth: 2 });

    process.env['NODE_ENV'] = 'production';
    delete process.env['PROVIDER_JWT_ISSUER'];
    await expect(run('up')).rejects.toThrow(/^NamespaceProviderOwners1764700000000: set PROVIDER_JWT_ISSUER/);
    expect((await ownerOf(first)).user_id).toBe('user-42');

    process.env['PROVIDER_JWT_ISSUER'] = ISSUER;
    await run('up');
    for (const id of [first, second, retry]) expect(await ownerOf(id)).toEqual({ user_id: owner('user-42'), caller: owner('user-42') });
    expect(await ownerOf(first)).toEqual({ user_id: 'provider:https%3A%2F%2Fid.example%2Fprovider:user-42', caller: 'provider:https%3A%2F%2Fid.example%2Fprovider:user-42' });
    // only provider sessions export: a subject shaped like a gateway session is renamed too
    expect((await ownerOf(shaped)).user_id).toBe(owner(lookalike));
    expect(await ownerOf(already)).toEqual({ user_id: owner('user-7'), caller: owner('user-7') });
    // a key already under the new id is the newer one: it stays, the bare one goes
    expect(await keys()).toEqual([
      { user_id: owner('user-42'), key: 'k1', fingerprint: 'f' },
      { user_id: owner('user-7'), key: 'k2', fingerprint: 'new' },
      { user_id: owner(lookalike), key: 'k3', fingerprint: 'f' },
    ]);
    // the quota counts the user's earlier exports, and a resent request finds its key
    expect(await counts(owner('user-42'))).toEqual({ exportsToday: 2, exportsThisMonth: 2 });
    expect(await counts('user-42')).toEqual({ exportsToday: 0, exportsThisMonth: 0 });
    expect(await ds.transaction((tx) => store.keys.findKey(tx, owner('user-42'), 'k1'))).toMatchObject({ jobId: second, fingerprint: 'f' });

    await run('down');
    expect(await ownerOf(first)).toEqual({ user_id: 'user-42', caller: 'user-42' });
    expect((await ownerOf(shaped)).user_id).toBe(lookalike);
    expect((await ownerOf(already)).user_id).toBe('user-7');
    expect((await keys()).map((k) => `${k.user_id}/${k.key}`)).toEqual(['user-42/k1', 'user-7/k2', `${lookalike}/k3`]);
    expect(await counts('user-42')).toEqual({ exportsToday: 2, exportsThisMonth: 2 });
  });
});
