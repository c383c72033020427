/**
 * Verification of the provider's session token: the provider signs a JWT and hands it
 * to the browser (`?token=` on the editor URL); every WordCut call carries it as a bearer token.
 *
 * Security rules, in order:
 * - the key comes from OUR configuration (a PEM public key, an HMAC secret, or the provider's JWKS
 *   URL), never from the token: tokens carrying `jku`, `x5u`, `jwk` or `x5c` headers are refused;
 * - the header's `alg` must be in the configured allow-list (`none` can never be listed);
 * - HS* algorithms verify only against the configured `hmacSecret`, never against a public key
 *   (no RS/HS key confusion), and may be listed only when a secret is configured;
 * - issuer, audience and expiry (`exp` required) are checked by jose, then WordCut's private claims
 *   are validated with `providerTokenClaimsSchema`.
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import {
  createRemoteJWKSet,
  decodeProtectedHeader,
  errors as joseErrors,
  jwtVerify,
  type JWTVerifyGetKey,
  type JWTPayload,
} from 'jose';
import { providerTokenClaimsSchema, type ProviderTokenClaims } from '@wordcut/contracts';

export type ProviderTokenErrorCode =
  | 'TOKEN_MISSING'
  | 'TOKEN_EXPIRED'
  | 'TOKEN_INVALID'
  | 'TOKEN_CLAIMS_INVALID'
  | 'KEYS_UNAVAILABLE';

/** A token that cannot be accepted; `message` is fit to show to the user. */
export class ProviderTokenError extends Error {
  override readonly name = 'ProviderTokenError';
  constructor(
    readonly code: ProviderTokenErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export interface ProviderTokenVerifierOptions {
  /** expected `iss` */
  issuer: string;
  /** expected `aud` */
  audience: string;
  /** allow-list of JWS algorithms; default ['RS256', 'ES256', 'EdDSA'] */
  algorithms?: string[];
  /** the provider's public key (SPKI PEM) */
  publicKeyPem?: string;
  /** the provider's JWKS endpoint (fetched and cached by jose) */
  jwksUrl?: string;
  /** shared secret for HS* tokens; HS* algorithms must also be listed in `algorithms` */
  hmacSecret?: string;
  /** leeway for exp/nbf/iat, seconds; default 30 */
  clockToleranceSec?: number;
  /** oldest accepted token (seconds since `iat`, which becomes required); unset: no age limit */
  maxTokenAgeSec?: number;
}

/**
 * A verified session token's claims, and `ownerId`: what the objects of its user record as their
 * owner (providerOwnerId of its issuer and subject).
 */
export type VerifiedProviderToken = ProviderTokenClaims & { exp: number; iat?: number; ownerId: string };

/** Owner ids of provider users start with this; no other owner id does (gateway sessions are `wordcut:<uuid>`). */
export const PROVIDER_OWNER_PREFIX = 'provider:';

/**
 * The owner id of a provider user: the subject under its issuer, `provider:<issuer>:<sub>` with the
 * issuer percent-encoded (it holds no ':'), so no two issuers' subjects and no gateway session
 * ever share an owner id.
 */
export function providerOwnerId(issuer: string, subject: string): string {
  return `${PROVIDER_OWNER_PREFIX}${encodeURIComponent(issuer)}:${subject}`;
}

export const DEFAULT_TOKEN_ALGORITHMS: readonly string[] = ['RS256', 'ES256', 'EdDSA'];

const REOPEN = 'Open the editor again from the provider.';
/** Header parameters that would let a token name its own key. */
const KEY_BEARING_HEADERS = ['jku', 'x5u', 'jwk', 'x5c'] as const;
const MIN_HMAC_SECRET_LENGTH = 32;

const isHmac = (alg: string): boolean => /^HS\d+$/.test(alg);

/** Verifies provider session tokens. One instance per configuration; the JWKS is cached inside. */
export class ProviderTokenVerifier {
  private readonly algorithms: string[];
  private readonly getKey: JWTVerifyGetKey;
  private readonly clockTolerance: number;

  constructor(private readonly options: ProviderTokenVerifierOptions) {
    if (!options.issuer || !options.audience) throw new Error('ProviderTokenVerifier: issuer and audience are required');
    const algorithms = [...(options.algorithms ?? DEFAULT_TOKEN_ALGORITHMS)];
    if (algorithms.length === 0) throw new Error('ProviderTokenVerifier: the algorithm allow-list is empty');
    if (algorithms.some((a) => a.toLowerCase() === 'none')) {
      throw new Error("ProviderTokenVerifier: 'none' can never be an allowed algorithm");
    }
    const hmacListed = algorithms.filter(isHmac);
    if (hmacListed.length > 0 && !options.hmacSecret) {
      throw new Error(`ProviderTokenVerifier: ${hmacListed.join(', ')} allowed but no hmacSecret is configured`);
    }
    if (options.hmacSecret !== undefined && options.hmacSecret.length < MIN_HMAC_SECRET_LENGTH) {
      throw new Error(`ProviderTokenVerifier: hmacSecret must be at least ${MIN_HMAC_SECRET_LENGTH} characters`);
    }
    const asymmetric = algorithms.filter((a) => !isHmac(a));
    if (asymmetric.length > 0 && !options.publicKeyPem && !options.jwksUrl) {
      throw new Error(`ProviderTokenVerifier: ${asymmetric.join(', ')} allowed but neither publicKeyPem nor jwksUrl is configured`);
    }
    this.algorithms = algorithms;
    this.clockTolerance = options.clockToleranceSec ?? 30;
    this.getKey = buildKeyResolver(options);
  }

  /** Verifies the token and returns its claims, or throws a ProviderTokenError. */
  async verify(token: string | null | undefined): Promise<VerifiedProviderToken> {
    if (!token || !token.trim()) {
      throw new ProviderTokenError('TOKEN_MISSING', `No session token was provided. ${REOPEN}`);
    }
    this.checkHeader(token);
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.getKey, {
        issuer: this.options.issuer,
        audience: this.options.audience,
        algorithms: this.algorithms,
        clockTolerance: this.clockTolerance,
        requiredClaims: this.options.maxTokenAgeSec ? ['exp', 'iat'] : ['exp'],
        ...(this.options.maxTokenAgeSec ? { maxTokenAge: this.options.maxTokenAgeSec } : {}),
      }));
    } catch (e) {
      throw toTokenError(e);
    }
    const parsed = providerTokenClaimsSchema.safeParse(payload);
    if (!parsed.success) {
      const fields = [...new Set(parsed.error.issues.map((i) => i.path.join('.') || '(root)'))];
      throw new ProviderTokenError(
        'TOKEN_CLAIMS_INVALID',
        `The session token from the provider is missing or has invalid information (${fields.join(', ')}). ${REOPEN}`,
      );
    }
    return { ...parsed.data, exp: payload.exp!, ...(payload.iat !== undefined ? { iat: payload.iat } : {}), ownerId: providerOwnerId(this.options.issuer, parsed.data.sub) };
  }

  /** Refuses malformed tokens, disallowed algorithms and tokens that try to bring their own key. */
  private checkHeader(token: string): void {
    let header: Record<string, unknown>;
    try {
      header = decodeProtectedHeader(token) as Record<string, unknown>;
    } catch {
      throw invalid('it is malformed');
    }
    const alg = header['alg'];
    if (typeof alg !== 'string' || !this.algorithms.includes(alg)) {
      throw invalid(`its signing algorithm ${typeof alg === 'string' ? `'${alg.slice(0, 20)}' ` : ''}is not accepted`);
    }
    const embedded = KEY_BEARING_HEADERS.filter((h) => h in header);
    if (embedded.length > 0) throw invalid(`it names its own key (${embedded.join(', ')})`);
  }
}

/** Extracts the token from an `Authorization: Bearer <token>` header; null when absent or malformed. */
export function bearerToken(authorizationHeader?: string | null): string | null {
  const m = /^\s*Bearer\s+([^\s]+)\s*$/i.exec(authorizationHeader ?? '');
  return m ? m[1]! : null;
}

/** Picks the key by algorithm family: HS* → configured secret only; others → PEM or JWKS. */
function buildKeyResolver(o: ProviderTokenVerifierOptions): JWTVerifyGetKey {
  const secret = o.hmacSecret ? new TextEncoder().encode(o.hmacSecret) : undefined;
  let publicKey: KeyObject | undefined;
  if (o.publicKeyPem) {
    // createPublicKey would happily derive a public key from a private one: refuse that config
    if (/PRIVATE KEY/.test(o.publicKeyPem)) throw new Error('ProviderTokenVerifier: publicKeyPem must be a PUBLIC key');
    try {
      publicKey = createPublicKey(o.publicKeyPem);
    } catch (e) {
      throw new Error(`ProviderTokenVerifier: publicKeyPem is not a valid public key (${(e as Error).message})`);
    }
  }
  const jwks = o.jwksUrl ? createRemoteJWKSet(new URL(o.jwksUrl), { timeoutDuration: 5000 }) : undefined;
  return async (header, input) => {
    if (isHmac(header.alg)) {
      if (!secret) throw invalid('its signing algorithm is not accepted');
      return secret;
    }
    if (publicKey) return publicKey;
    if (jwks) return jwks(header, input);
    throw invalid('its signing algorithm is not accepted');
  };
}

function invalid(reason: string): ProviderTokenError {
  return new ProviderTokenError('TOKEN_INVALID', `The session token is not valid: ${reason}. ${REOPEN}`);
}

/** Maps jose's (and the JWKS fetch's) errors to user-facing ProviderTokenErrors. */
function toTokenError(e: unknown): ProviderTokenError {
  if (e instanceof ProviderTokenError) return e;
  if (e instanceof joseErrors.JWTExpired) {
    if (e.claim === 'iat') return new ProviderTokenError('TOKEN_EXPIRED', `The session token is older than WordCut accepts. ${REOPEN}`);
    return new ProviderTokenError('TOKEN_EXPIRED', `The session token has expired. ${REOPEN}`);
  }
  if (e instanceof joseErrors.JWTClaimValidationFailed) {
    switch (e.claim) {
      case 'iss':
        return invalid('it was not issued by the expected provider');
      case 'aud':
        return invalid('it was not issued for WordCut');
      case 'nbf':
        return invalid('it is not valid yet');
      case 'exp':
        return invalid('it has no expiry');
      case 'iat':
        return invalid(e.reason === 'check_failed' ? 'it was issued in the future' : 'it has no valid issue time');
      default:
        return invalid(`its '${e.claim}' claim is wrong`);
    }
  }
  if (e instanceof joseErrors.JWSSignatureVerificationFailed) return invalid('its signature does not verify');
  if (e instanceof joseErrors.JWKSNoMatchingKey) return invalid("it is not signed by any of the provider's keys");
  if (e instanceof joseErrors.JOSEAlgNotAllowed) return invalid('its signing algorithm is not accepted');
  if (e instanceof joseErrors.JWKSTimeout || e instanceof joseErrors.JWKSInvalid) return keysUnavailable();
  if (e instanceof joseErrors.JOSEError) {
    // jose reports a failed JWKS download (non-200, not JSON) as a generic error
    return e.code === 'ERR_JOSE_GENERIC' && /JSON Web Key Set/i.test(e.message) ? keysUnavailable() : invalid('it is malformed');
  }
  if (isNetworkError(e)) return keysUnavailable();
  // e.g. a TypeError when the key type does not fit the token's algorithm
  return invalid("it cannot be verified with the provider's key");
}

function keysUnavailable(): ProviderTokenError {
  return new ProviderTokenError(
    'KEYS_UNAVAILABLE',
    "The provider's signing keys could not be fetched, so the session token cannot be checked. Try again in a moment.",
  );
}

/**
 * A socket/DNS/TLS failure from node (ECONNREFUSED, ENOTFOUND, EAI_AGAIN, CERT_HAS_EXPIRED, ...), as
 * opposed to a crypto or argument error (ERR_OSSL_*, ERR_INVALID_ARG_*). Duck-typed: such errors
 * may come from another realm.
 */
function isNetworkError(e: unknown): boolean {
  const code = typeof e === 'object' && e !== null ? (e as { code?: unknown }).code : undefined;
  return typeof code === 'string' && !/^ERR_(?!TLS_|SOCKET_|HTTP_)/.test(code);
}
