/** Integration tests: real Postgres, NATS JetStream, S3 server (s3rver) and ffmpeg. `*.int.spec.ts`. */
const shared = require('./jest.shared');
module.exports = {
  ...shared,
  displayName: 'integration',
  testMatch: ['<rootDir>/{libs,services,tools}/**/*.int.spec.ts'],
  testTimeout: 120000,
  // test files run side by side, three on two cores (they wait on renders, services and ffmpeg a
  // third of the time): each has its own database, namespace, bucket and ports
  // (jest reads a percentage over 100 as a worker count, so the figure is computed here)
  maxWorkers: Math.max(1, Math.round(require('node:os').availableParallelism() * 1.5)),
  globalSetup: '<rootDir>/tools/jest/int-global-setup.js',
};
