/**
 * The sandbox provider's signing keys: one ES256 keypair (persisted in `keyDir` when given, so a
 * restart keeps issued tokens valid) and a "forged" keypair, made fresh on every start, that signs
 * tokens under the same `kid` — what an attacker without the real key could produce.
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  calculateJwkThumbprint,
  exportJWK,
  exportPKCS8,
  exportSPKI,
  generateKeyPair,
  importPKCS8,
  SignJWT,
  UnsecuredJWT,
  type JWK,
  type JWTPayload,
} from 'jose';

export const SANDBOX_ALG = 'ES256';
const KEY_FILE = 'sandbox-es256.pkcs8.pem';

export interface SandboxKeys {
  kid: string;
  privateKey: KeyObject;
  forgedPrivateKey: KeyObject;
  publicKeyPem: string;
  publicJwk: JWK;
}

export async function loadOrCreateKeys(keyDir?: string): Promise<SandboxKeys> {
  const privateKey = keyDir ? await loadOrCreatePersisted(keyDir) : await freshPrivateKey();
  const publicKey = createPublicKey(privateKey);
  const jwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(jwk);
  return {
    kid,
    privateKey,
    forgedPrivateKey: await freshPrivateKey(),
    publicKeyPem: await exportSPKI(publicKey),
    publicJwk: { ...jwk, kid, alg: SANDBOX_ALG, use: 'sig' },
  };
}

async function freshPrivateKey(): Promise<KeyObject> {
  const { privateKey } = await generateKeyPair(SANDBOX_ALG, { extractable: true });
  return privateKey as KeyObject;
}

async function loadOrCreatePersisted(keyDir: string): Promise<KeyObject> {
  const file = join(keyDir, KEY_FILE);
  try {
    return (await importPKCS8(await readFile(file, 'utf8'), SANDBOX_ALG, { extractable: true })) as KeyObject;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  const key = await freshPrivateKey();
  await mkdir(keyDir, { recursive: true });
  await writeFile(file, await exportPKCS8(key), { mode: 0o600 });
  return key;
}

/**
 * How a sandbox token is signed:
 * - 'ES256' (default): properly, with the sandbox key (or the forged one);
 * - 'HS256': the RS/HS key-confusion attack — HMAC keyed with the sandbox's PUBLIC key PEM;
 * - 'none': an unsecured JWT (alg "none", empty signature).
 */
export type SandboxSigningAlg = 'ES256' | 'HS256' | 'none';

export async function signWithSandboxKeys(
  keys: SandboxKeys,
  payload: JWTPayload,
  o: { alg: SandboxSigningAlg; key: 'sandbox' | 'forged'; issuer: string; audience: string; iat: number; exp: number },
): Promise<string> {
  if (o.alg === 'none') {
    return new UnsecuredJWT(payload).setIssuer(o.issuer).setAudience(o.audience).setIssuedAt(o.iat).setExpirationTime(o.exp).encode();
  }
  const jwt = new SignJWT(payload).setIssuer(o.issuer).setAudience(o.audience).setIssuedAt(o.iat).setExpirationTime(o.exp);
  if (o.alg === 'HS256') {
    return jwt.setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: keys.kid }).sign(new TextEncoder().encode(keys.publicKeyPem));
  }
  const key = o.key === 'forged' ? keys.forgedPrivateKey : keys.privateKey;
  return jwt.setProtectedHeader({ alg: SANDBOX_ALG, typ: 'JWT', kid: keys.kid }).sign(key);
}
