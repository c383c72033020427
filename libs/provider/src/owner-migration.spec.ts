import { migrationProviderOwnerPrefix, SANDBOX_PROVIDER_ISSUER } from './owner-migration';
import { providerOwnerId } from './token';

describe('migrationProviderOwnerPrefix', () => {
  it('is the owner prefix of the configured issuer', () => {
    expect(migrationProviderOwnerPrefix('M', { PROVIDER_JWT_ISSUER: ' https://id.example/p ', NODE_ENV: 'production' })).toBe('provider:https%3A%2F%2Fid.example%2Fp:');
    expect(migrationProviderOwnerPrefix('M', { PROVIDER_JWT_ISSUER: 'iss' }) + 'u').toBe(providerOwnerId('iss', 'u'));
  });

  it("defaults to the sandbox's issuer outside production", () => {
    expect(migrationProviderOwnerPrefix('M', {})).toBe(providerOwnerId(SANDBOX_PROVIDER_ISSUER, ''));
    expect(migrationProviderOwnerPrefix('M', { NODE_ENV: 'test', PROVIDER_JWT_ISSUER: '  ' })).toBe(providerOwnerId(SANDBOX_PROVIDER_ISSUER, ''));
  });

  it('refuses to guess the issuer in production, naming the migration', () => {
    expect(() => migrationProviderOwnerPrefix('NamespaceX', { NODE_ENV: 'production' })).toThrow(/^NamespaceX: set PROVIDER_JWT_ISSUER/);
    expect(() => migrationProviderOwnerPrefix('NamespaceX', { NODE_ENV: 'production', PROVIDER_JWT_ISSUER: '' })).toThrow(/PROVIDER_JWT_ISSUER/);
  });
});
