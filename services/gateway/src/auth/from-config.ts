import { ProviderTokenVerifier } from '@wordcut/provider';
import type { GatewayConfig } from '../config';
import { GatewayTokens } from './gateway-tokens';
import { IdentityResolver } from './identity.guard';
import { SessionAuth } from '../session-auth';

/** The provider's session tokens as this deployment trusts them (key, algorithms, issuer, audience, age). */
export function providerTokenVerifier(config: GatewayConfig): ProviderTokenVerifier {
  return new ProviderTokenVerifier({
    issuer: config.PROVIDER_JWT_ISSUER,
    audience: config.PROVIDER_JWT_AUDIENCE,
    algorithms: config.PROVIDER_JWT_ALGORITHMS,
    jwksUrl: config.PROVIDER_JWKS_URL,
    publicKeyPem: config.PROVIDER_JWT_PUBLIC_KEY,
    maxTokenAgeSec: config.PROVIDER_JWT_MAX_AGE_SECONDS,
  });
}

/** The gateway's own session and media-URL tokens. */
export function gatewayTokens(config: GatewayConfig): GatewayTokens {
  return new GatewayTokens(config.GATEWAY_SESSION_SECRET, {
    sessionTtlSec: config.GATEWAY_SESSION_TTL_SECONDS,
    sessionMaxLifetimeSec: config.GATEWAY_SESSION_MAX_LIFETIME_SECONDS,
    mediaTtlSec: config.MEDIA_URL_TTL_SECONDS,
  });
}

/** Everything that tells who is calling, built from the configuration. */
export function identityFromConfig(config: GatewayConfig): { auth: SessionAuth; tokens: GatewayTokens; resolver: IdentityResolver } {
  const auth = new SessionAuth(providerTokenVerifier(config));
  const tokens = gatewayTokens(config);
  return { auth, tokens, resolver: new IdentityResolver(auth, tokens) };
}
