import { generateKeyPairSync } from 'node:crypto';
import { bearerToken, ProviderTokenError, ProviderTokenVerifier } from './token';

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
