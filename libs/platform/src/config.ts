import { z } from 'zod';

export class ConfigError extends Error {
  constructor(service: string, public readonly issues: string[]) {
    super(`${service}: invalid configuration:\n  - ${issues.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Validates the environment against a zod schema at boot. On failure it throws one
 * ConfigError naming every bad or missing variable, so a service fails fast and clearly.
 */
export function loadConfig<S extends z.ZodType>(service: string, schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => {
    const key = i.path.join('.') || '(env)';
    const got = i.path.length ? env[String(i.path[0])] : undefined;
    return got === undefined ? `${key}: ${i.message} (not set)` : `${key}: ${i.message}`;
  });
  throw new ConfigError(service, issues);
}

const bool = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1');

/** An optional secret from the environment: an empty value (as compose's `${X:-}` gives) counts as unset. */
const optionalCredential = z
  .string()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

/** A yes/no setting: true, false, 1 or 0, with its default. */
export const envFlag = (d: boolean) =>
  z
    .enum(['true', 'false', '1', '0'])
    .default(d ? 'true' : 'false')
    .transform((v) => v === 'true' || v === '1');

/** Pieces every service composes into its own schema. */
export const commonConfig = {
  PORT: z.coerce.number().int().min(0).max(65535),
  HOST: z.string().default('0.0.0.0'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().positive().default(10000),
};

export const natsConfig = {
  NATS_URL: z.string().min(1, 'must name the NATS server(s), e.g. nats://127.0.0.1:4222'),
  NATS_NAMESPACE: z
    .string()
    .regex(/^[a-z][a-z0-9_]{0,31}$/, 'lower-case letters, digits and _ (prefixes every subject and stream)')
    .default('wordcut'),
  /**
   * NATS credentials: a user and password (the server's `authorization { user, password }`), or a
   * token (`authorization { token }`). Unset or empty = connect without credentials. Every service
   * passes them to Messaging.connect (user, pass, token), which refuses half a pair or both kinds.
   */
  NATS_USER: optionalCredential,
  NATS_PASSWORD: optionalCredential,
  NATS_TOKEN: optionalCredential,
  /** copies JetStream keeps of each stream: 1 on one server, 3 on a three-node JetStream cluster */
  NATS_STREAM_REPLICAS: z.coerce.number().int().min(1).max(5).default(1),
};

export const databaseConfig = {
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL'),
};

/**
 * The settings of a service that owns a Postgres schema and talks over NATS: the common ones
 * (PORT defaulting to `defaultPort`), NATS and the database. A service spreads it into its schema.
 */
export function databaseServiceConfig(defaultPort: number) {
  return { ...commonConfig, PORT: commonConfig.PORT.default(defaultPort), ...natsConfig, ...databaseConfig };
}

/** Maps the validated NATS_* variables to the messaging library's connection settings (name and logger apart). */
export function natsSettings(c: { NATS_URL: string; NATS_NAMESPACE: string; NATS_USER?: string | undefined; NATS_PASSWORD?: string | undefined; NATS_TOKEN?: string | undefined; NATS_STREAM_REPLICAS?: number }) {
  return { servers: c.NATS_URL, user: c.NATS_USER, pass: c.NATS_PASSWORD, token: c.NATS_TOKEN, namespace: c.NATS_NAMESPACE, streamReplicas: c.NATS_STREAM_REPLICAS ?? 1 };
}

export const s3Config = {
  S3_ENDPOINT: z.string().url().optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1),
  S3_SECRET_ACCESS_KEY: z.string().min(1),
  S3_BUCKET: z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a valid bucket name'),
  S3_FORCE_PATH_STYLE: bool.default(true),
};

/** Maps the validated S3_* variables to the storage library's settings. */
export function s3Settings(c: {
  S3_ENDPOINT?: string | undefined;
  S3_REGION: string;
  S3_ACCESS_KEY_ID: string;
  S3_SECRET_ACCESS_KEY: string;
  S3_BUCKET: string;
  S3_FORCE_PATH_STYLE: boolean;
}) {
  return {
    ...(c.S3_ENDPOINT ? { endpoint: c.S3_ENDPOINT } : {}),
    region: c.S3_REGION,
    accessKeyId: c.S3_ACCESS_KEY_ID,
    secretAccessKey: c.S3_SECRET_ACCESS_KEY,
    bucket: c.S3_BUCKET,
    forcePathStyle: c.S3_FORCE_PATH_STYLE,
  };
}
