/**
 * `npm start` (after setup and build): the whole product on this machine. Starts a local S3
 * server unless S3_ENDPOINT is set and the provider sandbox (the provider's stand-in: session
 * tokens, media, uploads), creates and migrates the database, starts every service and the
 * five web apps, opens the demo video through a provider session (ready to edit), then waits;
 * Ctrl-C stops everything.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { providerSessionResponseSchema, videoSchema, type Video } from '@wordcut/contracts';
import { startProviderSandbox, type ProviderSandbox } from '../provider-sandbox/sandbox';
import { DEFAULT_PORTS, migrateAll, ROOT, startStack, type Stack } from './stack';
import { DATA_DIR, ensureDatabase, LOCAL_S3_PORT, LOCAL_WEBHOOK_SECRET, localEnv, PROVIDER_SANDBOX_PORT } from './local-env';

/** One fixed session: every start opens the same demo video (the gateway keeps one video per session). */
const DEMO_SESSION = 'local-demo';

const WEB = [
  { app: 'shell', port: 4200, flags: ['--spa', '--proxy', '/api=http://127.0.0.1:3000'] },
  { app: 'editor', port: 4201, flags: ['--cors'] },
  { app: 'keyclips', port: 4202, flags: ['--cors'] },
  { app: 'publish', port: 4203, flags: ['--cors'] },
  { app: 'analytics', port: 4204, flags: ['--cors'] },
];

async function main(): Promise<void> {
  const children: ChildProcess[] = [];
  let stack: Stack | undefined;
  let localS3: { close(): Promise<void> } | undefined;
  let sandbox: ProviderSandbox | undefined;
  const shutdown = async (code: number) => {
    for (const c of children) c.kill('SIGTERM');
    await stack?.stop();
    await sandbox?.close();
    await localS3?.close();
    process.exit(code);
  };
  process.once('SIGINT', () => void shutdown(0));
  process.once('SIGTERM', () => void shutdown(0));

  try {
    let endpoint = process.env['S3_ENDPOINT'];
    if (!endpoint) {
      const { startLocalS3 } = await import('@wordcut/storage');
      const s3 = await startLocalS3({ port: LOCAL_S3_PORT, directory: join(DATA_DIR, 's3') });
      localS3 = s3;
      endpoint = s3.endpoint;
      console.log(`S3 (s3rver) on ${endpoint}, data in ${join(DATA_DIR, 's3')}`);
    }
    const mediaDir = join(DATA_DIR, 'media');
    sandbox = await startProviderSandbox({
      port: PROVIDER_SANDBOX_PORT,
      publicUrl: `http://localhost:${PROVIDER_SANDBOX_PORT}`,
      mediaDir,
      editorUrl: 'http://localhost:4200',
      keyDir: join(DATA_DIR, 'provider-sandbox'),
      // completion webhooks go to the export service (an ingress routes /webhooks/provider there in a cluster)
      webhookUrl: `http://127.0.0.1:${DEFAULT_PORTS.export}/webhooks/provider`,
      webhookSecret: LOCAL_WEBHOOK_SECRET,
    });
    const env = localEnv(endpoint, sandbox);
    await ensureDatabase(env.DATABASE_URL);
    await migrateAll(env);
    stack = await startStack({ env, logDir: join(DATA_DIR, 'logs') });
    console.log(`services healthy: ${Object.values(stack.services).map((s) => `${s.name} ${s.url}`).join(', ')}`);

    for (const w of WEB) {
      const dir = join(ROOT, 'apps', w.app, 'dist');
      if (!existsSync(dir)) throw new Error(`apps/${w.app}/dist is missing: run \`npm run build:web\``);
      children.push(
        spawn(process.execPath, [join(ROOT, 'tools/scripts/serve-static.js'), '--dir', dir, '--port', String(w.port), ...w.flags], { stdio: 'ignore' }),
      );
    }
    await waitFor('http://127.0.0.1:4200/remotes.json');
    const demo = await openDemo(stack.services.gateway.url, sandbox);
    console.log('');
    console.log('WordCut is running.');
    // every video has an owner: the demo link enters through the provider, as the demo's owner
    console.log(`  Demo video, ready to edit   http://localhost:${PROVIDER_SANDBOX_PORT}/open?video=demo&session=${DEMO_SESSION} (video ${demo.id})`);
    console.log(`  Enter as the provider would http://localhost:${PROVIDER_SANDBOX_PORT}/open?video=demo`);
    console.log('  Upload your own             http://localhost:4200');
    console.log(`  Logs                        ${join(DATA_DIR, 'logs')}`);
    console.log('  Stop                        Ctrl-C');
  } catch (err) {
    console.error(`start: ${(err as Error).message}`);
    await shutdown(1);
  }
}

/** Opens the demo through a provider session (idempotent) and waits until it is ready to edit. */
async function openDemo(gateway: string, sandbox: ProviderSandbox): Promise<Video> {
  const token = await sandbox.signToken(
    {
      sessionId: DEMO_SESSION,
      videoId: 'demo',
      title: 'WordCut demo talk',
      languageCode: 'en',
      media: { videoUrl: `${sandbox.url}/media/demo.mp4`, vttUrl: `${sandbox.url}/media/demo.vtt` },
    },
    { expiresInSec: 600 },
  );
  const auth = { Authorization: `Bearer ${token}` };
  const res = await fetch(`${gateway}/api/provider/sessions`, { method: 'POST', headers: auth });
  if (!res.ok) throw new Error(`the demo session could not be opened: ${res.status} ${await res.text()}`);
  const { video } = providerSessionResponseSchema.parse(await res.json());
  const until = Date.now() + 180_000;
  for (;;) {
    const v = videoSchema.parse(await (await fetch(`${gateway}/api/videos/${video.id}`, { headers: auth })).json());
    if (v.status === 'completed') return v;
    if (v.status === 'failed') {
      console.warn(`the demo video failed to process (${v.vttError}); retrying`);
      await fetch(`${gateway}/api/videos/${v.id}/transcribe`, { method: 'POST', headers: auth });
    }
    if (Date.now() > until) throw new Error('the demo video was not ready within 3 minutes (see .data/logs/media.log)');
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function waitFor(url: string, timeoutMs = 15000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

void main();
