/**
 * Runs the provider sandbox locally: `npx tsx tools/provider-sandbox/main.ts`, then open the printed
 * link; the sandbox redirects to the WordCut editor with a signed session token, as the provider would.
 *
 * env: PROVIDER_SANDBOX_PORT (4610), PROVIDER_SANDBOX_HOST (127.0.0.1), PROVIDER_SANDBOX_PUBLIC_URL
 * (http://localhost:<port>), PROVIDER_SANDBOX_MEDIA_DIR (<repo>/.data/media), EDITOR_URL
 * (http://localhost:4200), PROVIDER_SANDBOX_WEBHOOK_URL (where signed webhooks go; none: not sent),
 * PROVIDER_SANDBOX_WEBHOOK_SECRET (their HMAC secret; default the local dev secret),
 * PROVIDER_SANDBOX_TRANSCRIPTION_KEY (the key /v1/audio/transcriptions requires; none: any). The keypair is
 * kept in <repo>/.data/provider-sandbox so tokens survive restarts.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DEFAULT_WEBHOOK_SECRET, startProviderSandbox } from './sandbox';

const ROOT = resolve(__dirname, '../..');

async function main(): Promise<void> {
  const port = Number(process.env['PROVIDER_SANDBOX_PORT'] ?? 4610);
  const mediaDir = resolve(process.env['PROVIDER_SANDBOX_MEDIA_DIR'] ?? join(ROOT, '.data/media'));
  const sandbox = await startProviderSandbox({
    port,
    host: process.env['PROVIDER_SANDBOX_HOST'] ?? '127.0.0.1',
    publicUrl: process.env['PROVIDER_SANDBOX_PUBLIC_URL'] ?? `http://localhost:${port}`,
    mediaDir,
    editorUrl: process.env['EDITOR_URL'] ?? 'http://localhost:4200',
    keyDir: join(ROOT, '.data/provider-sandbox'),
    ...(process.env['PROVIDER_SANDBOX_WEBHOOK_URL'] ? { webhookUrl: process.env['PROVIDER_SANDBOX_WEBHOOK_URL'] } : {}),
    webhookSecret: process.env['PROVIDER_SANDBOX_WEBHOOK_SECRET'] || DEFAULT_WEBHOOK_SECRET,
    ...(process.env['PROVIDER_SANDBOX_TRANSCRIPTION_KEY'] ? { transcriptionApiKey: process.env['PROVIDER_SANDBOX_TRANSCRIPTION_KEY'] } : {}),
  });
  console.log(`provider sandbox: ${sandbox.url}  (issuer ${sandbox.issuer}, audience ${sandbox.audience})`);
  console.log(`  JWKS:  ${sandbox.jwksUrl}`);
  console.log(`  media: ${mediaDir}`);
  console.log(`  library: ${sandbox.url}/library`);
  console.log(`  webhooks: ${process.env['PROVIDER_SANDBOX_WEBHOOK_URL'] || '(none: set PROVIDER_SANDBOX_WEBHOOK_URL)'}`);
  console.log(`  transcription stand-in: TRANSCRIPTION_URL=${sandbox.url}/v1 (only for media of ${mediaDir} with captions; not speech recognition)`);
  if (!existsSync(join(mediaDir, 'demo.mp4'))) console.log('  (no demo.mp4 there yet: run `npm run media`)');
  console.log(`open the editor as the provider would: ${sandbox.url}/open?video=demo`);
  const stop = (): void => {
    void sandbox.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
