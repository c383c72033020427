/**
 * Once per integration run, before any test file: the generated test media (tools/media), so
 * test files running side by side never write them at once.
 */
const { execFileSync } = require('node:child_process');
const { join } = require('node:path');

module.exports = async function intGlobalSetup() {
  const root = join(__dirname, '..', '..');
  execFileSync('bash', [join(root, 'tools/media/generate-test-media.sh'), join(root, '.data', 'test-media')], { stdio: 'ignore' });
};
