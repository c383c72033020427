/** The sandbox's session tokens: signing them as the provider does, verifying them on its API, what a refresh carries over. */
import type { KeyObject } from 'node:crypto';
import type http from 'node:http';
import { errors as joseErrors, jwtVerify } from 'jose';
import type { Plan } from '@wordcut/contracts';
import { header, HttpError } from './http';
import { SANDBOX_ALG, signWithSandboxKeys, type SandboxKeys } from './keys';
import type { SandboxTokenClaims, SignTokenOptions, TokenClaims } from './types';

export const SANDBOX_PLANS: Record<'pro' | 'free', Plan> = {
  pro: { tier: 'pro', quotas: { exportsPerDay: 20, exportsPerMonth: 100 } },
  free: { tier: 'free', quotas: { exportsPerDay: 2, exportsPerMonth: 5 } },
};
/** Claims the sandbox sets when it signs; everything else in a token is carried over on refresh and clone. */
const REGISTERED_CLAIMS = ['iss', 'aud', 'exp', 'iat', 'nbf', 'jti'];

/** Fills the claims a real provider always sends; keys explicitly set to undefined are left out. */
export async function signSandboxToken(
  keys: SandboxKeys,
  claims: SandboxTokenClaims,
  o: SignTokenOptions & { issuer: string; audience: string },
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const expiresIn = o.expiresInSec ?? 3600;
  const payload: Record<string, unknown> = {
    sub: 'sandbox-user',
    plan: SANDBOX_PLANS.pro,
    usageSnapshot: { exportsToday: 0, exportsThisMonth: 0, nextResetTime: nextMidnightUtc() },
    ...claims,
  };
  for (const k of Object.keys(payload)) if (payload[k] === undefined) delete payload[k];
  return signWithSandboxKeys(keys, payload, {
    alg: o.alg ?? 'ES256',
    key: o.key ?? 'sandbox',
    issuer: o.issuer,
    audience: o.audience,
    iat: expiresIn > 0 ? now : now + expiresIn - 60,
    exp: now + expiresIn,
  });
}

/** The caller's token, verified with the sandbox's own key, as the provider's API would. */
export async function authenticate(req: http.IncomingMessage, publicKey: KeyObject, o: { issuer: string; audience: string }): Promise<TokenClaims> {
  const m = /^\s*Bearer\s+(\S+)\s*$/i.exec(header(req, 'authorization') ?? '');
  const challenge = { 'www-authenticate': 'Bearer realm="provider-sandbox"' };
  if (!m) throw new HttpError(401, 'A session token is required (Authorization: Bearer <token>).', 'unauthorized', challenge);
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(m[1]!, publicKey, { issuer: o.issuer, audience: o.audience, algorithms: [SANDBOX_ALG], requiredClaims: ['exp'], clockTolerance: 30 }));
  } catch (e) {
    const why = e instanceof joseErrors.JWTExpired ? 'has expired' : 'is not valid';
    throw new HttpError(401, `The session token ${why}.`, 'unauthorized', challenge);
  }
  for (const k of ['sub', 'sessionId', 'videoId']) {
    if (typeof payload[k] !== 'string' || !payload[k]) throw new HttpError(401, `The session token has no ${k}.`, 'unauthorized', challenge);
  }
  return payload as TokenClaims;
}

/** The claims a refreshed (or cloned) token carries over: everything but what signing sets. */
export function carriedClaims(claims: TokenClaims): SandboxTokenClaims {
  const out: Record<string, unknown> = { ...claims };
  for (const k of REGISTERED_CLAIMS) delete out[k];
  return out as SandboxTokenClaims;
}

function nextMidnightUtc(): string {
  const d = new Date();
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1)).toISOString();
}
