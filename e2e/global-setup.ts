/**
 * Starts the real backend for the end-to-end tests: a local S3 server, a fresh Postgres
 * database, a private NATS namespace, migrations, and every service as a process (the built
 * dist/ of each), and one real ingest of the demo video that tests copy. The shell under test
 * proxies /api to this gateway.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startProviderSandbox } from '../tools/provider-sandbox/sandbox';
import { migrateAll, ROOT, startStack } from '../tools/stack/stack';
import { createTestDatabase, NATS_URL, uniqueSuffix } from '../tools/testing/env';
import { ingestThroughSandbox } from '../tools/testing/seed-completed-video';
import { E2E_PORTS, E2E_SANDBOX_PORT, E2E_SHELL_URL } from './ports';

export default async function globalSetup(): Promise<() => Promise<void>> {
  const { startLocalS3 } = await import('@wordcut/storage');
  const dir = mkdtempSync(path.join(tmpdir(), 'wordcut-e2e-'));
  const media = path.join(dir, 'media');
  mkdirSync(media);
  execFileSync('ffmpeg', [
    '-hide_banner', '-loglevel', 'error',
    '-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=25:duration=2',
    '-f', 'lavfi', '-i', 'sine=frequency=440:duration=2',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-shortest', '-y', path.join(media, 'tiny.mp4'),
  ]);
  writeFileSync(path.join(media, 'notes.txt'), 'plain text, not a video\n');
  process.env['E2E_MEDIA_DIR'] = media;
  // the demo talk (espeak-ng speech, fillers, pauses) and its VTT, made by the same script as the local stack's
  const demoMedia = path.join(ROOT, '.data', 'test-media');
  execFileSync('bash', [path.join(ROOT, 'tools/media/generate-test-media.sh'), demoMedia], { stdio: 'ignore' });
  process.env['E2E_DEMO_MEDIA_DIR'] = demoMedia;
  const webhookSecret = 'whsec_e2e_secret_0123456789abcdef0123456789';
  const sandbox = await startProviderSandbox({
    port: E2E_SANDBOX_PORT,
    mediaDir: demoMedia,
    editorUrl: E2E_SHELL_URL,
    webhookUrl: `http://127.0.0.1:${E2E_PORTS.export}/webhooks/provider`,
    webhookSecret,
  });
  process.env['PROVIDER_SANDBOX_URL'] = sandbox.url;
  const sandboxHost = new URL(sandbox.url).host;

  const s3 = await startLocalS3({ port: 0, directory: path.join(dir, 's3') });
  const db = await createTestDatabase();
  const namespace = `e2e${uniqueSuffix()}`;
  // the dashboard test dead-letters a message and sends a signed webhook of its own
  process.env['E2E_NATS_NAMESPACE'] = namespace;
  process.env['E2E_WEBHOOK_SECRET'] = webhookSecret;
  const env = {
    DATABASE_URL: db.url,
    NATS_URL,
    NATS_NAMESPACE: namespace,
    S3_ENDPOINT: s3.endpoint,
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    S3_BUCKET: 'wordcut-e2e',
    PROVIDER_JWKS_URL: sandbox.jwksUrl,
    PROVIDER_JWT_ISSUER: sandbox.issuer,
    PROVIDER_JWT_AUDIENCE: sandbox.audience,
    PROVIDER_API_URL: sandbox.url,
    PROVIDER_WEBHOOK_SECRET: webhookSecret,
    PROVIDER_MEDIA_ALLOWED_HOSTS: sandboxHost,
    PROVIDER_MEDIA_TRUSTED_PRIVATE_HOSTS: sandboxHost,
  };
  await migrateAll(env);
  const stack = await startStack({ env, ports: E2E_PORTS, logDir: path.resolve(__dirname, '../test-results/e2e-logs') });
  const teardown = async (): Promise<void> => {
    await stack.stop();
    const { Messaging } = await import('@wordcut/messaging');
    const { createLogger } = await import('@wordcut/platform');
    const bus = await Messaging.connect({ servers: NATS_URL, namespace, name: 'e2e-cleanup', logger: createLogger('e2e', 'silent') });
    const { ExportStream, Streams } = await import('@wordcut/contracts');
    for (const s of [...Object.values(Streams), ExportStream]) await bus.jsm.streams.delete(bus.streamName(s.name)).catch(() => undefined);
    await bus.close();
    await sandbox.close();
    await s3.close();
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
  };
  // the demo is ingested once, for real; tests open completed copies of it (e2e/seeded-video.ts)
  try {
    const template = await ingestThroughSandbox({ sandboxUrl: sandbox.url, gatewayUrl: `http://127.0.0.1:${E2E_PORTS.gateway}`, video: 'demo', sessionId: 'e2e-demo-template' });
    process.env['E2E_DEMO_TEMPLATE_ID'] = template.videoId;
  } catch (err) {
    await teardown();
    throw err;
  }
  process.env['E2E_DATABASE_URL'] = db.url;
  process.env['E2E_S3_CONFIG'] = JSON.stringify(s3.storageConfig(env.S3_BUCKET));
  return teardown;
}
