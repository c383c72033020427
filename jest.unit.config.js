/** Unit tests: pure and in-process code, no external systems. `*.spec.ts(x)` next to the code. */
const shared = require('./jest.shared');
module.exports = {
  ...shared,
  displayName: 'unit',
  // every core (jest's default leaves one idle: half the machine here)
  maxWorkers: '100%',
  // a hang still fails; a loaded machine's slow start does not
  testTimeout: 15000,
  testMatch: ['<rootDir>/{libs,services,apps,tools}/**/*.spec.{ts,tsx}'],
  testPathIgnorePatterns: [...shared.testPathIgnorePatterns, '\\.int\\.spec\\.ts$'],
};
