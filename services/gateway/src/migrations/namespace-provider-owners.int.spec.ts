/**
 * The owner-namespace migration on a real Postgres: provider users' videos and renders move to
 * `provider:<issuer>:<sub>`, upload-form videos keep their `wordcut:<uuid>` owner, and a provider
 * subject that looked like a gateway session is renamed too (it came from a provider session).
 */
import { identityEditList } from '@wordcut/edit-list';
import { providerOwnerId } from '@wordcut/provider';
import { randomUUID } from 'node:crypto';
import { gatewayTestDatabase } from '../../../../tools/testing/gateway-database';
import { NamespaceProviderOwners1764500000000 } from './1764500000000-NamespaceProviderOwners';

const database = gatewayTestDatabase(2);
const ISSUER = 'https://id.example/provider';

async function video(ownerId: string | null, providerSessionId: string | null): Promise<string> {
  const id = randomUUID();
  await database.ds.query(
    `INSERT INTO library.videos (id, title, original_name, filename, status, vtt_method, language_code, owner_id, provider_session_id) VALUES ($1, 't', 'o', 'f', 'completed', 'upload', 'en', $2, $3)`,
    [id, ownerId, providerSessionId],
  );
  return id;
}

async function render(videoId: string, userId: string): Promise<string> {
  const jobId = `cut_${randomUUID()}`;
  await database.ds.query(`INSERT INTO library.renders (job_id, video_id, kind, state, user_id, base_edit_version, base_edit, new_edit) VALUES ($1, $2, 'cut', 'applied', $3, 0, $4, $4)`, [
    jobId,
    videoId,
    userId,
    JSON.stringify(identityEditList(5)),
  ]);
  return jobId;
}

const ownerOf = async (id: string) => ((await database.ds.query(`SELECT owner_id FROM library.videos WHERE id = $1`, [id])) as [{ owner_id: string | null }])[0].owner_id;
const userOf = async (jobId: string) => ((await database.ds.query(`SELECT user_id FROM library.renders WHERE job_id = $1`, [jobId])) as [{ user_id: string }])[0].user_id;

describe('NamespaceProviderOwners', () => {
  const saved = process.env['PROVIDER_JWT_ISSUER'];
  beforeAll(() => {
    process.env['PROVIDER_JWT_ISSUER'] = ISSUER;
  });
  afterAll(() => {
    if (saved === undefined) delete process.env['PROVIDER_JWT_ISSUER'];
    else process.env['PROVIDER_JWT_ISSUER'] = saved;
  });

  it('renames provider owners under their issuer and keeps gateway sessions as they are', async () => {
    const session = `wordcut:${randomUUID()}`;
    const provider = await video('user-42', `s-${randomUUID()}`);
    const providerUpload = await video('user-42', null);
    const upload = await video(session, null);
    const lookalike = await video(session, `s-${randomUUID()}`);
    const unowned = await video(null, null);
    const providerRender = await render(provider, 'user-42');
    const uploadRender = await render(upload, session);
    await database.ds.query(`INSERT INTO library.rate_limits (key, window_start, count) VALUES ('upload:user:user-42', now(), 3), ($1, now(), 2)`, [`upload:user:${session}`]);

    const runner = database.ds.createQueryRunner();
    try {
      await new NamespaceProviderOwners1764500000000().up(runner);
    } finally {
      await runner.release();
    }

    expect(await ownerOf(provider)).toBe(providerOwnerId(ISSUER, 'user-42'));
    expect(await ownerOf(provider)).toBe('provider:https%3A%2F%2Fid.example%2Fprovider:user-42');
    expect(await ownerOf(providerUpload)).toBe(providerOwnerId(ISSUER, 'user-42'));
    expect(await ownerOf(upload)).toBe(session);
    expect(await ownerOf(lookalike)).toBe(providerOwnerId(ISSUER, session));
    expect(await ownerOf(unowned)).toBeNull();
    expect(await userOf(providerRender)).toBe(providerOwnerId(ISSUER, 'user-42'));
    expect(await userOf(uploadRender)).toBe(session);
    const keys = ((await database.ds.query(`SELECT key FROM library.rate_limits`)) as { key: string }[]).map((r) => r.key);
    expect(keys).toEqual([`upload:user:${session}`]);

    const back = database.ds.createQueryRunner();
    try {
      await new NamespaceProviderOwners1764500000000().down(back);
    } finally {
      await back.release();
    }
    expect(await ownerOf(provider)).toBe('user-42');
    expect(await ownerOf(upload)).toBe(session);
    expect(await userOf(providerRender)).toBe('user-42');
  });
});
