/**
 * `npm start` (after setup and build): the whole product on this machine. Starts a local S3
 * server unless S3_ENDPOINT is set, creates and migrates the database, starts every service
 * and the five web apps, then waits; Ctrl-C stops everything.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { migrateAll, ROOT, startStack, type Stack } from './stack';
import { DATA_DIR, ensureDatabase, LOCAL_S3_PORT, localEnv } from './local-env';

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
  const shutdown = async (code: number) => {
    for (const c of children) c.kill('SIGTERM');
    await stack?.stop();
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
    const env = localEnv(endpoint);
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
    const demo = join(DATA_DIR, 'media', 'demo.mp4');
    console.log('');
    console.log('WordCut is running.');
    console.log('  Open   http://localhost:4200');
    console.log(`  Demo   ${demo} (upload it in the editor's "Probe a media file" form)`);
    console.log(`  Logs   ${join(DATA_DIR, 'logs')}`);
    console.log('  Stop   Ctrl-C');
  } catch (err) {
    console.error(`start: ${(err as Error).message}`);
    await shutdown(1);
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
