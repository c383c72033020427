import { generateKeyPairSync } from 'node:crypto';
import { SignJWT } from 'jose';
import { bearerToken, PROVIDER_OWNER_PREFIX, providerOwnerId, ProviderTokenError, ProviderTokenVerifier } from './token';

const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
const base = { issuer: 'provider', audience: 'wordcut', publicKeyPem };

describe('bearerToken', () => {
  it('extracts the token of a Bearer header', () => {
    expect(bearerToken('Bearer abc.def.ghi')).toBe('abc.def.ghi');
    expect(bearerToken('bearer   abc.def.ghi  ')).toBe('abc.def.ghi');
  });

  it('gives null for missing or other schemes', () => {
    expect(bearerToken(undefined)).toBeNull();
    expect(bearerToken('')).toBeNull();
    expect(bearerToken('Bearer')).toBeNull();
    expect(bearerToken('Basic dXNlcjpwYXNz')).toBeNull();
    expect(bearerToken('Bearer a b')).toBeNull();
  });
});

describe('ProviderTokenVerifier configuration', () => {
  it('refuses unsafe or incomplete configurations loudly', () => {
    expect(() => new ProviderTokenVerifier({ ...base, issuer: '' })).toThrow(/issuer and audience/);
    expect(() => new ProviderTokenVerifier({ ...base, algorithms: [] })).toThrow(/empty/);
    expect(() => new ProviderTokenVerifier({ ...base, algorithms: ['ES256', 'none'] })).toThrow(/'none'/);
    expect(() => new ProviderTokenVerifier({ ...base, algorithms: ['HS256'] })).toThrow(/HS256 allowed but no hmacSecret/);
    expect(() => new ProviderTokenVerifier({ ...base, algorithms: ['HS256'], hmacSecret: 'short' })).toThrow(/at least 32/);
    expect(() => new ProviderTokenVerifier({ issuer: 'p', audience: 'w' })).toThrow(/neither publicKeyPem nor jwksUrl/);
    expect(() => new ProviderTokenVerifier({ ...base, publicKeyPem: 'not a pem' })).toThrow(/not a valid public key/);
    const privatePem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(() => new ProviderTokenVerifier({ ...base, publicKeyPem: privatePem })).toThrow(/PUBLIC key/);
  });

  it('accepts an HS-only configuration with a secret and no public key', () => {
    expect(() => new ProviderTokenVerifier({ issuer: 'p', audience: 'w', algorithms: ['HS256'], hmacSecret: 'x'.repeat(32) })).not.toThrow();
  });

  it('reports a missing or malformed token without any IO', async () => {
    const v = new ProviderTokenVerifier(base);
    await expect(v.verify('')).rejects.toMatchObject({ code: 'TOKEN_MISSING' });
    await expect(v.verify(undefined)).rejects.toBeInstanceOf(ProviderTokenError);
    await expect(v.verify('garbage')).rejects.toMatchObject({ code: 'TOKEN_INVALID', message: expect.stringMatching(/malformed/) });
  });
});

describe('ProviderTokenVerifier maximum token age', () => {
  const claims = { sessionId: 's1', videoId: 'v1', plan: { tier: 'pro', quotas: {} }, usageSnapshot: {} };
  const sign = (iat: number | null) => {
    const jwt = new SignJWT({ sub: 'u', ...claims }).setProtectedHeader({ alg: 'ES256' }).setIssuer('provider').setAudience('wordcut').setExpirationTime('1h');
    if (iat !== null) jwt.setIssuedAt(iat);
    return jwt.sign(privateKey);
  };
  const now = () => Math.floor(Date.now() / 1000);

  it('refuses a token issued longer ago than the limit, and one without an issue time', async () => {
    const v = new ProviderTokenVerifier({ ...base, maxTokenAgeSec: 3600 });
    await expect(v.verify(await sign(now() - 60))).resolves.toMatchObject({ sub: 'u' });
    await expect(v.verify(await sign(now() - 7200))).rejects.toMatchObject({ code: 'TOKEN_EXPIRED', message: expect.stringMatching(/older than WordCut accepts/) });
    await expect(v.verify(await sign(null))).rejects.toMatchObject({ code: 'TOKEN_INVALID', message: expect.stringMatching(/issue time/) });
  });

  it('accepts old tokens when no limit is configured', async () => {
    await expect(new ProviderTokenVerifier(base).verify(await sign(now() - 7200))).resolves.toMatchObject({ sub: 'u' });
  });
});

describe('provider owner ids', () => {
  const claims = { sessionId: 's1', videoId: 'v1', plan: { tier: 'pro', quotas: {} }, usageSnapshot: {} };

  it("are the token's subject under its issuer", async () => {
    const token = await new SignJWT({ sub: 'u', ...claims }).setProtectedHeader({ alg: 'ES256' }).setIssuer('provider').setAudience('wordcut').setExpirationTime('1h').sign(privateKey);
    await expect(new ProviderTokenVerifier(base).verify(token)).resolves.toMatchObject({ sub: 'u', ownerId: 'provider:provider:u' });
  });

  it("never equal a gateway session's owner id, nor another issuer's subject", () => {
    const gatewayOwner = 'wordcut:0b6f7a8e-2f0c-4a55-9a63-1f1f6f1d2b3c';
    expect(providerOwnerId('provider', gatewayOwner)).toBe(`provider:provider:${gatewayOwner}`);
    expect(providerOwnerId('provider', gatewayOwner).startsWith('wordcut:')).toBe(false);
    expect(providerOwnerId('https://id.example:8443/x', 'u')).toBe('provider:https%3A%2F%2Fid.example%3A8443%2Fx:u');
    // an issuer cannot borrow part of a subject: the issuer part holds no ':'
    expect(providerOwnerId('a:b', 'c')).not.toBe(providerOwnerId('a', 'b:c'));
    expect(providerOwnerId('a', 'b').startsWith(PROVIDER_OWNER_PREFIX)).toBe(true);
  });
});
