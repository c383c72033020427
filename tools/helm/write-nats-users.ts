/**
 * Writes docker/nats/wordcut-users.conf from libs/messaging/src/permissions.ts (compose's NATS
 * users; the chart check compares them): `npx tsx tools/helm/write-nats-users.ts`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { natsAuthorizationConf } from '../../libs/messaging/src/permissions';

const HEADER = [
  "# The services' NATS users (namespace wordcut), one per service with only the subjects it uses.",
  '# Generated from libs/messaging/src/permissions.ts (the chart check compares them); passwords come',
  "# from the server's environment (NATS_PASSWORD_<SERVICE>, docker/.env).",
  '',
].join('\n');

writeFileSync(join(__dirname, '../../docker/nats/wordcut-users.conf'), HEADER + natsAuthorizationConf('wordcut'));
