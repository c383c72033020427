import { commonConfig, loadConfig, natsConfig, s3Config } from '@wordcut/platform';
import { z } from 'zod';

export const SERVICE = 'gateway';

export const gatewayConfigSchema = z.object({
  ...commonConfig,
  PORT: commonConfig.PORT.default(3000),
  ...natsConfig,
  ...s3Config,
  /** largest accepted upload in bytes (413 above it); default 10 GB */
  UPLOAD_MAX_BYTES: z.coerce.number().int().positive().default(10 * 1024 ** 3),
  /** how long a query to another service may take before the gateway answers 503 */
  RPC_TIMEOUT_MS: z.coerce.number().int().positive().default(5000),
});
export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;

export const loadGatewayConfig = (env: NodeJS.ProcessEnv = process.env): GatewayConfig => loadConfig(SERVICE, gatewayConfigSchema, env);
