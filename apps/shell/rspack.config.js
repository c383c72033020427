// Rspack + Module Federation (host); the shared settings live in libs/ui/build/rspack.app.js.
const { createAppConfig } = require('../../libs/ui/build/rspack.app.js');

module.exports = createAppConfig({ name: 'shell', dir: __dirname, role: 'host' });
