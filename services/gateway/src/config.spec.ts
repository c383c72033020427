/**
 * The gateway's configuration from the environment: the defaults a deployment gets when it sets
 * only what is required, and the refusals (one ConfigError naming every bad variable) at boot.
 */
import { ConfigError } from '@wordcut/platform';
import { loadGatewayConfig, providerApiUrl } from './config';

const SECRET = 'a-test-secret-of-at-least-32-characters!';

/** The least a deployment must set: infrastructure, the session secret and the provider's key set. */
const required = {
  NATS_URL: 'nats://127.0.0.1:4222',
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/wordcut',
  S3_ACCESS_KEY_ID: 'key',
  S3_SECRET_ACCESS_KEY: 'secret',
  S3_BUCKET: 'wordcut-media',
  GATEWAY_SESSION_SECRET: SECRET,
  PROVIDER_JWKS_URL: 'https://provider.example.com/.well-known/jwks.json',
};

/** The issues of the ConfigError that loading `env` throws. */
function refusal(env: NodeJS.ProcessEnv): string[] {
  try {
    loadGatewayConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).issues;
  }
  throw new Error('the configuration was accepted');
}

describe('loadGatewayConfig', () => {
  it('fills the documented defaults when only the required variables are set', () => {
    const c = loadGatewayConfig({ ...required });
    expect(c).toMatchObject({
      PORT: 3000,
      DATABASE_POOL_SIZE: 20,
      UPLOAD_MAX_BYTES: 2 * 1024 ** 3,
      RPC_TIMEOUT_MS: 5000,
      EXPORT_RPC_TIMEOUT_MS: 20000,
      LEGACY_UPLOAD_ENABLED: false,
      GATEWAY_SESSION_TTL_SECONDS: 24 * 3600,
      GATEWAY_SESSION_MAX_LIFETIME_SECONDS: 7 * 24 * 3600,
      MEDIA_URL_TTL_SECONDS: 4 * 3600,
      PROVIDER_JWT_MAX_AGE_SECONDS: 24 * 3600,
      MAX_ACTIVE_JOBS_PER_USER: 3,
      UPLOADS_PER_HOUR_PER_USER: 20,
      UPLOADS_PER_HOUR_PER_IP: 30,
      SESSIONS_PER_HOUR_PER_IP: 30,
      TRUST_PROXY: 'loopback',
      RETENTION_DAYS: 0,
      RETENTION_SWEEP_INTERVAL_MS: 3600 * 1000,
      DEFAULT_LANGUAGE: 'en',
      STREAM_CACHE_SECONDS: 3600,
      PROVIDER_JWT_ISSUER: 'wordcut-provider-sandbox',
      PROVIDER_JWT_AUDIENCE: 'wordcut',
      PROVIDER_JWT_ALGORITHMS: ['RS256', 'ES256', 'EdDSA'],
    });
    expect(c.PROVIDER_API_URL).toBeUndefined();
  });

  it('reads numbers, booleans and the algorithm list from their text', () => {
    const c = loadGatewayConfig({
      ...required,
      PORT: '8080',
      UPLOAD_MAX_BYTES: '1000',
      LEGACY_UPLOAD_ENABLED: '1',
      RETENTION_DAYS: '30',
      PROVIDER_JWT_ALGORITHMS: ' ES256 , EdDSA ,',
    });
    expect(c).toMatchObject({ PORT: 8080, UPLOAD_MAX_BYTES: 1000, LEGACY_UPLOAD_ENABLED: true, RETENTION_DAYS: 30, PROVIDER_JWT_ALGORITHMS: ['ES256', 'EdDSA'] });
    expect(loadGatewayConfig({ ...required, LEGACY_UPLOAD_ENABLED: 'true' }).LEGACY_UPLOAD_ENABLED).toBe(true);
    expect(loadGatewayConfig({ ...required, LEGACY_UPLOAD_ENABLED: '0' }).LEGACY_UPLOAD_ENABLED).toBe(false);
  });

  it('refuses to start without GATEWAY_SESSION_SECRET, or with one shorter than 32 characters', () => {
    const { GATEWAY_SESSION_SECRET: _, ...withoutSecret } = required;
    expect(refusal(withoutSecret)).toEqual([expect.stringMatching(/^GATEWAY_SESSION_SECRET: .*\(not set\)$/)]);
    expect(refusal({ ...required, GATEWAY_SESSION_SECRET: 'x'.repeat(31) })).toEqual(['GATEWAY_SESSION_SECRET: GATEWAY_SESSION_SECRET must be at least 32 characters']);
    expect(loadGatewayConfig({ ...required, GATEWAY_SESSION_SECRET: 'x'.repeat(32) }).GATEWAY_SESSION_SECRET).toBe('x'.repeat(32));
  });

  it("refuses to start without the provider's key: a key set URL or a public key", () => {
    const { PROVIDER_JWKS_URL: _, ...withoutKey } = required;
    const issues = refusal({ ...withoutKey, PROVIDER_API_URL: 'https://provider.example.com' });
    expect(issues).toEqual(['PROVIDER_JWKS_URL: set PROVIDER_JWKS_URL or PROVIDER_JWT_PUBLIC_KEY (the provider key that signs session tokens) (not set)']);
    const c = loadGatewayConfig({ ...withoutKey, PROVIDER_API_URL: 'https://provider.example.com', PROVIDER_JWT_PUBLIC_KEY: '-----BEGIN PUBLIC KEY-----' });
    expect(c.PROVIDER_JWT_PUBLIC_KEY).toBe('-----BEGIN PUBLIC KEY-----');
  });

  it("refuses a public key alone: the provider's API URL cannot be derived from it", () => {
    const { PROVIDER_JWKS_URL: _, ...withoutKey } = required;
    expect(refusal({ ...withoutKey, PROVIDER_JWT_PUBLIC_KEY: 'pem' })).toEqual([
      "PROVIDER_API_URL: set PROVIDER_API_URL (the provider's API for token refresh and clone) (not set)",
    ]);
  });

  it('names every bad variable at once', () => {
    const issues = refusal({
      ...required,
      DATABASE_URL: 'mysql://db',
      MAX_ACTIVE_JOBS_PER_USER: '0',
      GATEWAY_SESSION_TTL_SECONDS: '60',
      LEGACY_UPLOAD_ENABLED: 'yes',
      PROVIDER_JWT_ALGORITHMS: 'HS256',
    });
    expect(issues.map((i) => i.split(':')[0])).toEqual(
      expect.arrayContaining(['DATABASE_URL', 'MAX_ACTIVE_JOBS_PER_USER', 'GATEWAY_SESSION_TTL_SECONDS', 'LEGACY_UPLOAD_ENABLED', 'PROVIDER_JWT_ALGORITHMS.0']),
    );
    expect(issues).toHaveLength(5);
  });

  it('refuses an empty algorithm list', () => {
    expect(refusal({ ...required, PROVIDER_JWT_ALGORITHMS: ' , ' })[0]).toMatch(/^PROVIDER_JWT_ALGORITHMS: /);
  });
});

describe('providerApiUrl', () => {
  it("is the configured API URL, else the origin serving the provider's key set", () => {
    expect(providerApiUrl(loadGatewayConfig({ ...required, PROVIDER_JWKS_URL: 'https://keys.example.com:8443/a/b/jwks.json' }))).toBe('https://keys.example.com:8443');
    expect(providerApiUrl(loadGatewayConfig({ ...required, PROVIDER_API_URL: 'https://api.example.com/v2' }))).toBe('https://api.example.com/v2');
  });
});
