import { commonConfig, databaseConfig, envFlag, loadConfig, natsConfig, s3Config } from '@wordcut/platform';
import { z } from 'zod';

export const SERVICE = 'gateway';
export const SCHEMA = 'library';

const bool = envFlag;
export const gatewayConfigSchema = z
  .object({
    ...commonConfig,
    PORT: commonConfig.PORT.default(3000),
    ...natsConfig,
    ...s3Config,
    ...databaseConfig,
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(20),
    /** largest accepted upload in bytes (413 above it); default 2 GiB */
    UPLOAD_MAX_BYTES: z.coerce.number().int().positive().default(2 * 1024 ** 3),
    /** how long a query to another service may take before the gateway answers 503 */
    RPC_TIMEOUT_MS: z.coerce.number().int().positive().default(5000),
    /**
     * how long export create and retry may take before the gateway answers 503: the export service
     * may first wait for the user's lock (another create or retry of theirs), and a timed-out
     * create may still commit its job
     */
    EXPORT_RPC_TIMEOUT_MS: z.coerce.number().int().positive().default(20000),
    /** how long the upload waits for a media worker to probe the file */
    UPLOAD_PROBE_TIMEOUT_MS: z.coerce.number().int().positive().default(60000),
    /** how long GET waveform waits for a worker to build missing peaks */
    WAVEFORM_BUILD_TIMEOUT_MS: z.coerce.number().int().positive().default(120000),
    /** silence kept next to speech on each side of a pause process-silence removes (docs/SILENCE.md) */
    SILENCE_PADDING_MS: z.coerce.number().int().min(0).max(500).default(100),
    /** an OpenAI-compatible speech-to-text endpoint the media workers use (docs/TRANSCRIPTION.md); set: an upload may come without captions */
    TRANSCRIPTION_URL: z.preprocess((v) => (v === '' ? undefined : v), z.string().url().optional()),
    /** an OpenAI-compatible endpoint (its base, e.g. https://host/v1) that finds key moments; unset: the local analyser alone (docs/KEYMOMENTS.md) */
    KEY_MOMENTS_LLM_URL: z.string().url().optional(),
    /** the model asked there */
    KEY_MOMENTS_LLM_MODEL: z.string().min(1).optional(),
    /** its API key (from a secret), sent as a bearer token */
    KEY_MOMENTS_LLM_API_KEY: z.string().min(1).optional(),
    /** how long the model may take before the local analyser answers instead */
    KEY_MOMENTS_LLM_TIMEOUT_MS: z.coerce.number().int().positive().default(20000),
    /** how long find-key-moments waits for its job before answering 202 with the job (0: at once) */
    KEY_MOMENTS_WAIT_MS: z.coerce.number().int().min(0).default(20000),
    /** the legacy MP4 + VTT upload form; off unless a deployment opts in (videos then only arrive from the provider) */
    LEGACY_UPLOAD_ENABLED: bool(false),
    /** signs the gateway's own session tokens (upload form) and signed media URLs; at least 32 characters */
    GATEWAY_SESSION_SECRET: z.string().min(32, 'GATEWAY_SESSION_SECRET must be at least 32 characters'),
    /** the operator dashboard's password (from a secret); unset: nobody can sign in there */
    ANALYTICS_PASSWORD: z.string().min(12, 'ANALYTICS_PASSWORD must be at least 12 characters').optional(),
    /** lifetime of an operator session (server-side; ended early by logout) */
    ANALYTICS_SESSION_TTL_SECONDS: z.coerce.number().int().min(300).default(8 * 3600),
    /** the operator cookie is Secure (HTTPS only); only a local stack on plain http turns it off */
    ANALYTICS_COOKIE_SECURE: bool(true),
    /** the dashboard's media work queue section (off: it says the queue figures are disabled) */
    MEDIA_QUEUE_METRICS: bool(true),
    /** failed operator logins one client address may make per 15 minutes; refused beyond */
    ANALYTICS_LOGIN_FAILURES_PER_15_MIN: z.coerce.number().int().min(1).default(5),
    /** lifetime of a gateway session token (refreshed by the browser well before it ends) */
    GATEWAY_SESSION_TTL_SECONDS: z.coerce.number().int().min(300).default(24 * 3600),
    /** absolute lifetime of a gateway session from its start: refreshes never carry it further (401 then) */
    GATEWAY_SESSION_MAX_LIFETIME_SECONDS: z.coerce.number().int().min(300).default(7 * 24 * 3600),
    /** how long a signed media URL (player, downloads) stays valid at least */
    MEDIA_URL_TTL_SECONDS: z.coerce.number().int().min(60).default(4 * 3600),
    /** oldest accepted provider session token, by its issue time */
    PROVIDER_JWT_MAX_AGE_SECONDS: z.coerce.number().int().min(60).default(24 * 3600),
    /** running jobs (ingests and renders, clips included) one identity may have at once; 429 beyond */
    MAX_ACTIVE_JOBS_PER_USER: z.coerce.number().int().min(1).default(3),
    /** uploads per rolling hour, per identity and per client address; 429 beyond */
    UPLOADS_PER_HOUR_PER_USER: z.coerce.number().int().min(1).default(20),
    UPLOADS_PER_HOUR_PER_IP: z.coerce.number().int().min(1).default(30),
    /** gateway sessions (upload form) one client address may start per hour */
    SESSIONS_PER_HOUR_PER_IP: z.coerce.number().int().min(1).default(30),
    /**
     * Express trust proxy: the hops whose X-Forwarded-For names the client (per-address limits).
     * Loopback only unless the operator names the ingress's addresses or CIDRs (comma list).
     */
    TRUST_PROXY: z.string().trim().min(1).default('loopback'),
    /** days after which videos nobody opened are deleted with their media; 0 keeps them forever */
    RETENTION_DAYS: z.coerce.number().int().min(0).default(0),
    /** how often the retention sweep runs */
    RETENTION_SWEEP_INTERVAL_MS: z.coerce.number().int().min(1000).default(3600 * 1000),
    /** language of transcripts whose VTT and token name none */
    DEFAULT_LANGUAGE: z.string().min(2).default('en'),
    /** seconds browsers may cache a media response (the URL carries the media version) */
    STREAM_CACHE_SECONDS: z.coerce.number().int().min(0).default(3600),
    /** provider session tokens: issuer and audience must match; the key comes from config, never the token */
    PROVIDER_JWT_ISSUER: z.string().min(1).default('wordcut-provider-sandbox'),
    PROVIDER_JWT_AUDIENCE: z.string().min(1).default('wordcut'),
    /** allow-list of signing algorithms (comma list) */
    PROVIDER_JWT_ALGORITHMS: z
      .string()
      .default('RS256,ES256,EdDSA')
      .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean))
      .pipe(z.array(z.enum(['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'])).min(1)),
    PROVIDER_JWKS_URL: z.string().url().optional(),
    PROVIDER_JWT_PUBLIC_KEY: z.string().optional(),
    /** the provider's API (token refresh, clone); default: the origin of PROVIDER_JWKS_URL */
    PROVIDER_API_URL: z.string().url().optional(),
  })
  .superRefine((c, ctx) => {
    if (c.KEY_MOMENTS_LLM_URL && !c.KEY_MOMENTS_LLM_MODEL) {
      ctx.addIssue({ code: 'custom', path: ['KEY_MOMENTS_LLM_MODEL'], message: 'set KEY_MOMENTS_LLM_MODEL (the model KEY_MOMENTS_LLM_URL answers with)' });
    }
    if (!c.PROVIDER_API_URL && !c.PROVIDER_JWKS_URL) {
      ctx.addIssue({ code: 'custom', path: ['PROVIDER_API_URL'], message: "set PROVIDER_API_URL (the provider's API for token refresh and clone)" });
    }
    if (!c.PROVIDER_JWKS_URL && !c.PROVIDER_JWT_PUBLIC_KEY) {
      ctx.addIssue({ code: 'custom', path: ['PROVIDER_JWKS_URL'], message: 'set PROVIDER_JWKS_URL or PROVIDER_JWT_PUBLIC_KEY (the provider key that signs session tokens)' });
    }
  });
export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;

/** The provider's API base URL: configured, or the origin serving its key set. */
export const providerApiUrl = (c: GatewayConfig): string => c.PROVIDER_API_URL ?? new URL(c.PROVIDER_JWKS_URL!).origin;

export const loadGatewayConfig = (env: NodeJS.ProcessEnv = process.env): GatewayConfig => loadConfig(SERVICE, gatewayConfigSchema, env);
