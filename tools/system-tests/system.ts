/**
 * The whole system for a system test: a throw-away database, NATS namespace and s3rver
 * directory, the provider sandbox, migrations, and every service as a real process; close()
 * undoes it all. Requires the services to be built (`npm run build:services`).
 */
import { S3Client } from '@aws-sdk/client-s3';
import { startLocalS3, type LocalS3 } from '@wordcut/storage';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_WEBHOOK_SECRET, startProviderSandbox, type ProviderSandbox } from '../provider-sandbox/sandbox';
import { migrateAll, startStack, type ServiceName, type Stack, type StackEnv } from '../stack/stack';
import { createTestDatabase, deleteNamespaceStreams, NATS_URL, stopStackReporting, uniqueSuffix } from '../testing/env';

export interface TestSystem {
  env: StackEnv;
  stack: Stack;
  sandbox: ProviderSandbox;
  s3: LocalS3;
  s3client: S3Client;
  /** scratch directory of this run (removed by close) */
  dir: string;
  /** URL of a gateway path */
  api(path: string): string;
  /** the services' log lines that mention `text` (e.g. a video id), for a failing test's message */
  logsMentioning(text: string, limit?: number): string;
  close(): Promise<void>;
}

export async function startSystem(o: {
  /** short name: NATS namespace prefix, bucket and scratch directory */
  name: string;
  ports: Partial<Record<ServiceName, number>>;
  /** what the sandbox serves as the provider's media (default: the scratch directory) */
  mediaDir?: string;
  /** allow media imports from the sandbox (SSRF guard: its host is allowed and trusted) */
  importFromSandbox?: boolean;
  /** transcribe videos without captions with the sandbox's stand-in (it knows the scripts of mediaDir's captioned videos) */
  transcribeWithSandbox?: boolean;
  env?: Record<string, string>;
  /** the secret the sandbox signs webhooks with (they go to the export service's /webhooks/provider) */
  webhookSecret?: string;
}): Promise<TestSystem> {
  const dir = mkdtempSync(join(tmpdir(), `wordcut-${o.name}-`));
  const s3 = await startLocalS3({ port: 0, directory: join(dir, 's3') });
  const webhookSecret = o.webhookSecret ?? DEFAULT_WEBHOOK_SECRET;
  const exportPort = o.ports.export;
  const sandbox = await startProviderSandbox({
    port: 0,
    mediaDir: o.mediaDir ?? dir,
    editorUrl: 'http://localhost:4200',
    webhookSecret,
    ...(exportPort ? { webhookUrl: `http://127.0.0.1:${exportPort}/webhooks/provider` } : {}),
  });
  const db = await createTestDatabase();
  const sandboxHost = new URL(sandbox.url).host;
  const env: StackEnv = {
    DATABASE_URL: db.url,
    NATS_URL,
    NATS_NAMESPACE: `${o.name.slice(0, 3)}${uniqueSuffix()}`,
    S3_ENDPOINT: s3.endpoint,
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    S3_BUCKET: `wordcut-${o.name}`,
    PROVIDER_JWKS_URL: sandbox.jwksUrl,
    PROVIDER_JWT_ISSUER: sandbox.issuer,
    PROVIDER_JWT_AUDIENCE: sandbox.audience,
    PROVIDER_API_URL: sandbox.url,
    PROVIDER_WEBHOOK_SECRET: webhookSecret,
    ...(o.importFromSandbox ? { PROVIDER_MEDIA_ALLOWED_HOSTS: sandboxHost, PROVIDER_MEDIA_TRUSTED_PRIVATE_HOSTS: sandboxHost } : {}),
    ...(o.transcribeWithSandbox ? { TRANSCRIPTION_URL: `${sandbox.url}/v1` } : {}),
    // the media workers' render cache lives and goes with the run
    MEDIA_CACHE_DIR: join(dir, 'media-cache'),
    ...o.env,
  };
  const s3client = new S3Client({ endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } });
  let stack: Stack | undefined;
  const close = async (): Promise<void> => {
    await stopStackReporting(stack);
    await deleteNamespaceStreams(env.NATS_NAMESPACE);
    await sandbox.close();
    await s3.close();
    await db.drop();
    s3client.destroy();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await migrateAll(env);
    stack = await startStack({ env, ports: o.ports });
  } catch (err) {
    await close();
    throw err;
  }
  const started = stack;
  const logsMentioning = (text: string, limit = 40): string => {
    const lines = Object.values(started.services).flatMap((svc) =>
      [...svc.lines.map((l) => JSON.stringify(l)), ...svc.stderr].filter((l) => l.includes(text)).map((l) => `[${svc.name}] ${l}`),
    );
    return lines.length ? `service logs mentioning ${text} (last ${Math.min(limit, lines.length)}):\n${lines.slice(-limit).join('\n')}` : `no service log mentions ${text}`;
  };
  return { env, stack: started, sandbox, s3, s3client, dir, api: (path) => `${started.services.gateway.url}${path}`, logsMentioning, close };
}
