/** Shared jest settings: SWC transform (with decorator metadata for NestJS), sources of workspace libs. */
const swc = {
  jsc: {
    parser: { syntax: 'typescript', tsx: true, decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, react: { runtime: 'automatic' } },
    target: 'es2022',
    keepClassNames: true,
  },
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
};

module.exports = {
  rootDir: __dirname,
  transform: { '^.+\\.(t|j)sx?$': ['@swc/jest', swc] },
  moduleNameMapper: {
    '^@wordcut/([a-z-]+)$': '<rootDir>/libs/$1/src',
    '\\.css$': '<rootDir>/tools/jest/style-stub.js',
  },
  // ESM-only packages (media-chrome's React wrappers use ce-la-react) are compiled like our code
  transformIgnorePatterns: ['/node_modules/(?!(ce-la-react|media-chrome)/)'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  modulePathIgnorePatterns: ['<rootDir>/.*/dist/'],
};
