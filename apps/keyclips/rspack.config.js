// Rspack + Module Federation (remote); the shared settings live in libs/ui/build/rspack.app.js.
const { createAppConfig } = require('../../libs/ui/build/rspack.app.js');

module.exports = createAppConfig({ name: 'keyclips', dir: __dirname, role: 'remote' });
