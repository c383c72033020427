import nx from '@nx/eslint-plugin';
import reactHooks from 'eslint-plugin-react-hooks';

/**
 * Module boundaries (Nx): apps use ui/domain/contracts and never services; services use
 * infra/domain/contracts; domain and contracts import nothing framework- or IO-bound.
 * Each service is its own scope and may not import another service.
 */
const IO_AND_FRAMEWORKS = [
  'react', 'react-dom', 'react-router-dom', '@tanstack/*', '@radix-ui/*',
  '@nestjs/*', 'typeorm', 'pg', '@nats-io/*', '@aws-sdk/*', 's3rver', 'busboy',
  'pino', 'prom-client', '@opentelemetry/*', 'express',
];

export default [
  { ignores: ['**/dist/**', '**/node_modules/**', '.nx/**', 'coverage/**', 'test-results/**', 'playwright-report/**', '.data/**', 'helm/**', 'k8s/**', 'docker/**'] },
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  ...nx.configs['flat/javascript'],
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.js', '**/*.jsx', '**/*.mjs', '**/*.cjs'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allowCircularSelfDependency: false,
          allow: [],
          depConstraints: [
            { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: [], allowedExternalImports: ['zod'] },
            { sourceTag: 'type:domain', onlyDependOnLibsWithTags: ['type:domain', 'type:contracts'], bannedExternalImports: IO_AND_FRAMEWORKS },
            { sourceTag: 'type:infra', onlyDependOnLibsWithTags: ['type:infra', 'type:contracts', 'type:domain'] },
            { sourceTag: 'type:ui', onlyDependOnLibsWithTags: ['type:ui', 'type:contracts', 'type:domain'], bannedExternalImports: ['@nestjs/*', 'typeorm', 'pg', '@nats-io/*', '@aws-sdk/*'] },
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:ui', 'type:contracts', 'type:domain'], bannedExternalImports: ['@nestjs/*', 'typeorm', 'pg', '@nats-io/*', '@aws-sdk/*'] },
            { sourceTag: 'type:service', onlyDependOnLibsWithTags: ['type:infra', 'type:contracts', 'type:domain'] },
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
          ],
        },
      ],
      // with noUncheckedIndexedAccess, a checked '!' is the honest idiom
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // the pure libs (tagged type:domain / type:contracts): shared by the browser and the services
    files: ['libs/{contracts,edit-list,editor-core,keymoments,publishing,transcript}/src/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['node:*', 'fs', 'child_process', 'http', 'https', 'net'], message: 'domain and contracts code stays pure: no IO.' }] }],
    },
  },
  {
    files: ['apps/**/*.tsx', 'apps/**/*.ts', 'libs/ui/**/*.tsx', 'libs/ui/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['**/*.spec.ts', '**/*.spec.tsx', '**/*.spec-helpers.ts', '**/*.e2e.ts', 'e2e/**/*.ts', 'tools/**/*.ts'],
    rules: { '@nx/enforce-module-boundaries': 'off', '@typescript-eslint/no-empty-function': 'off', '@typescript-eslint/no-this-alias': 'off' },
  },
  {
    // build configuration, not runtime code: it reads the shared bundler setup by path
    files: ['apps/*/rspack.config.js'],
    rules: { '@nx/enforce-module-boundaries': 'off' },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
];
