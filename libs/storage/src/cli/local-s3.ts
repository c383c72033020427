#!/usr/bin/env node
/**
 * Local S3 server for development: `node libs/storage/dist/cli/local-s3.js --port 4568 --dir .data/s3
 * [--address 127.0.0.1] [--bucket wordcut]...`. Runs until SIGTERM/SIGINT.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startLocalS3 } from '../local-s3';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: process.env['S3_PORT'] ?? '4568' },
      address: { type: 'string', default: '127.0.0.1' },
      dir: { type: 'string', default: '.data/s3' },
      bucket: { type: 'string', multiple: true, default: [] },
      verbose: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(
      'usage: local-s3 [--port 4568] [--address 127.0.0.1] [--dir .data/s3] [--bucket NAME]... [--verbose]\n',
    );
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid --port ${values.port}`);

  const s3 = await startLocalS3({
    port,
    address: values.address,
    directory: resolve(values.dir),
    silent: !values.verbose,
    buckets: values.bucket,
  });
  process.stdout.write(`S3 listening on ${s3.endpoint}\n`);
  process.stdout.write(`S3 data in ${resolve(values.dir)}, credentials S3RVER/S3RVER\n`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`S3 stopping (${signal})\n`);
    const force = setTimeout(() => process.exit(0), 5000);
    force.unref();
    s3.close().then(
      () => process.exit(0),
      () => process.exit(0),
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err: unknown) => {
  process.stderr.write(`local-s3: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
