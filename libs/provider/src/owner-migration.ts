import { providerOwnerId } from './token';

/** PROVIDER_JWT_ISSUER's default in the gateway's configuration: the provider sandbox (local stacks). */
export const SANDBOX_PROVIDER_ISSUER = 'wordcut-provider-sandbox';

/**
 * The prefix a migration puts before a bare provider subject, `provider:<issuer>:`, from the
 * gateway's PROVIDER_JWT_ISSUER; unset, the sandbox's, except in production, where `migration`
 * refuses to guess it.
 */
export function migrationProviderOwnerPrefix(migration: string, env: NodeJS.ProcessEnv = process.env): string {
  const configured = env['PROVIDER_JWT_ISSUER']?.trim();
  if (configured) return providerOwnerId(configured, '');
  if (env['NODE_ENV'] === 'production') {
    throw new Error(`${migration}: set PROVIDER_JWT_ISSUER (the gateway's value) for the migration: provider owners are renamed under their issuer`);
  }
  return providerOwnerId(SANDBOX_PROVIDER_ISSUER, '');
}
