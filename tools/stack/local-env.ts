/** The local stack's settings: environment overrides first, then the defaults of this machine kind. */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { LOCAL_ANALYTICS_PASSWORD, ROOT, type StackEnv } from './stack';

export const DATA_DIR = resolve(ROOT, process.env['WORDCUT_DATA_DIR'] ?? '.data');
export const LOCAL_S3_PORT = Number(process.env['LOCAL_S3_PORT'] ?? 4568);
export const PROVIDER_SANDBOX_PORT = Number(process.env['PROVIDER_SANDBOX_PORT'] ?? 4610);
/** The webhook secret the local sandbox signs with and the export service verifies (dev only). */
export const LOCAL_WEBHOOK_SECRET = process.env['PROVIDER_WEBHOOK_SECRET'] ?? 'whsec_sandbox_local_dev_secret_0123456789';

/**
 * The local gateway's session-signing secret, kept in the data directory so that a restarted
 * stack still honours the sessions (and so the uploads) of the browser that used it.
 */
export function localSessionSecret(): string {
  if (process.env['GATEWAY_SESSION_SECRET']) return process.env['GATEWAY_SESSION_SECRET'];
  const file = resolve(DATA_DIR, 'gateway-session-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(DATA_DIR, { recursive: true });
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/** The provider the local stack trusts: the sandbox's key set, and its host for media imports. */
export interface LocalProvider {
  url: string;
  jwksUrl: string;
  issuer: string;
  audience: string;
}

export function localEnv(s3Endpoint: string, provider?: LocalProvider): StackEnv {
  const sandboxHosts = `localhost:${PROVIDER_SANDBOX_PORT},127.0.0.1:${PROVIDER_SANDBOX_PORT}`;
  const providerEnv: Record<string, string> = provider
    ? {
        PROVIDER_JWKS_URL: provider.jwksUrl,
        PROVIDER_JWT_ISSUER: provider.issuer,
        PROVIDER_JWT_AUDIENCE: provider.audience,
        PROVIDER_API_URL: provider.url,
        PROVIDER_WEBHOOK_SECRET: LOCAL_WEBHOOK_SECRET,
        // the sandbox runs on this machine: the only host allowed to resolve to a private address
        PROVIDER_MEDIA_ALLOWED_HOSTS: sandboxHosts,
        PROVIDER_MEDIA_TRUSTED_PRIVATE_HOSTS: sandboxHosts,
        // the sandbox's stand-in transcribes what it knows the script of (the demo); point it at a real service instead
        TRANSCRIPTION_URL: process.env['TRANSCRIPTION_URL'] ?? `${provider.url}/v1`,
        ...(process.env['TRANSCRIPTION_API_KEY'] ? { TRANSCRIPTION_API_KEY: process.env['TRANSCRIPTION_API_KEY'] } : {}),
        ...(process.env['TRANSCRIPTION_MODEL'] ? { TRANSCRIPTION_MODEL: process.env['TRANSCRIPTION_MODEL'] } : {}),
      }
    : {};
  return {
    ...providerEnv,
    DATABASE_URL: process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/wordcut',
    NATS_URL: process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222',
    NATS_NAMESPACE: process.env['NATS_NAMESPACE'] ?? 'wordcut',
    S3_ENDPOINT: s3Endpoint,
    S3_ACCESS_KEY_ID: process.env['S3_ACCESS_KEY_ID'] ?? 'S3RVER',
    S3_SECRET_ACCESS_KEY: process.env['S3_SECRET_ACCESS_KEY'] ?? 'S3RVER',
    S3_BUCKET: process.env['S3_BUCKET'] ?? 'wordcut',
    // the upload form is on locally (deployments keep it off)
    LEGACY_UPLOAD_ENABLED: process.env['LEGACY_UPLOAD_ENABLED'] ?? 'true',
    GATEWAY_SESSION_SECRET: localSessionSecret(),
    // the operator dashboard (/analytics) locally: a known password over plain http
    ANALYTICS_PASSWORD: process.env['ANALYTICS_PASSWORD'] ?? LOCAL_ANALYTICS_PASSWORD,
    ANALYTICS_COOKIE_SECURE: process.env['ANALYTICS_COOKIE_SECURE'] ?? 'false',
  };
}

/** Creates the database named in DATABASE_URL when it does not exist yet. */
export async function ensureDatabase(url: string): Promise<void> {
  const { Client } = await import('pg');
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const c = new Client({ connectionString: admin.toString() });
  await c.connect();
  try {
    const r = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!r.rowCount) await c.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } finally {
    await c.end();
  }
}
