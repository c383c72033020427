// @ts-check
/**
 * One Rspack + Module Federation configuration for the shell (host) and every remote, so that
 * all five builds agree on the shared singletons. Used by apps/<name>/rspack.config.js.
 *
 * - Shared singletons: react, react-dom, react/jsx-runtime, react-router(-dom),
 *   @tanstack/react-query and @wordcut/ui (its toast store must be one per page).
 *   None is eager: the shell starts with an async boundary (`import('./bootstrap')`).
 * - The shell declares no remotes at build time; it reads /remotes.json at run time and
 *   registers them with the MF runtime (see apps/shell/src/remotes.ts).
 * - Remotes expose exactly `./Module` from `remoteEntry.js` and publish `mf-manifest.json`.
 * - Workspace libs are bundled from their TypeScript sources (ESM, tree-shaken).
 */
const fs = require('node:fs');
const path = require('node:path');
const { rspack } = require('@rspack/core');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/rspack');

const workspaceRoot = path.resolve(__dirname, '../../..');

/** @param {string} pkg */
function installedVersion(pkg) {
  const file = path.join(workspaceRoot, 'node_modules', pkg, 'package.json');
  return JSON.parse(fs.readFileSync(file, 'utf8')).version;
}

const uiVersion = JSON.parse(fs.readFileSync(path.join(__dirname, '../package.json'), 'utf8')).version;

/** The shared-module table; identical in the host and all remotes. */
function sharedModules() {
  /** @type {Record<string, string>} share key -> package that gives its version */
  const vendor = {
    react: 'react',
    'react/jsx-runtime': 'react',
    'react-dom': 'react-dom',
    'react-router': 'react-router',
    'react-router-dom': 'react-router-dom',
    '@tanstack/react-query': '@tanstack/react-query',
  };
  /** @type {Record<string, {singleton: boolean, requiredVersion: string, version: string, eager: boolean}>} */
  const shared = {};
  for (const [key, pkg] of Object.entries(vendor)) {
    const version = installedVersion(pkg);
    shared[key] = { singleton: true, requiredVersion: `^${version}`, version, eager: false };
  }
  shared['@wordcut/ui'] = { singleton: true, requiredVersion: `^${uiVersion}`, version: uiVersion, eager: false };
  return shared;
}

/**
 * @param {{
 *   name: 'shell' | 'editor' | 'keyclips' | 'publish' | 'analytics',
 *   dir: string,
 *   role: 'host' | 'remote',
 * }} options
 * @returns {import('@rspack/core').Configuration}
 */
function createAppConfig({ name, dir, role }) {
  const isHost = role === 'host';
  const mode = process.env.NODE_ENV === 'development' ? 'development' : 'production';
  const containerName = `wordcut_${name}`;

  /** @type {import('@rspack/core').RuleSetRule[]} */
  const rules = [
    {
      test: /\.[cm]?[jt]sx?$/,
      exclude: /node_modules/,
      loader: 'builtin:swc-loader',
      type: 'javascript/auto',
      options: {
        jsc: {
          parser: { syntax: 'typescript', tsx: true },
          transform: { react: { runtime: 'automatic', development: mode === 'development' } },
        },
        env: { targets: ['chrome >= 111', 'edge >= 111', 'firefox >= 111', 'safari >= 16.4'] },
      },
    },
    // The contracts sources only declare schemas and constants: let unused parts (and zod) drop out.
    { test: /[\\/]libs[\\/]contracts[\\/]src[\\/]/, sideEffects: false },
  ];
  if (isHost) rules.push({ test: /\.css$/, type: 'css' });

  /** @type {import('@rspack/core').Plugins} */
  const plugins = [
    new ModuleFederationPlugin({
      name: containerName,
      ...(isHost
        ? { remotes: {} }
        : { filename: 'remoteEntry.js', exposes: { './Module': './src/Module.tsx' } }),
      shared: sharedModules(),
      shareStrategy: 'loaded-first',
      dts: false,
      // The MF runtime ships once, in the shell; remotes use the shell's copy.
      experiments: isHost ? { provideExternalRuntime: true } : { externalRuntime: true },
      manifest: isHost ? false : { fileName: 'mf-manifest.json' },
    }),
  ];
  if (isHost) {
    plugins.push(
      new rspack.HtmlRspackPlugin({ template: path.join(dir, 'src/index.html'), inject: 'body', minify: mode === 'production' }),
      new rspack.CopyRspackPlugin({ patterns: [{ from: path.join(dir, 'public') }] }),
    );
  }

  return {
    mode,
    context: dir,
    target: ['web', 'es2022'],
    devtool: mode === 'development' ? 'eval-cheap-module-source-map' : false,
    entry: isHost ? { main: './src/index.ts' } : {},
    output: {
      path: path.join(dir, 'dist'),
      // The shell uses deep SPA routes, so its assets load from the root; remotes resolve
      // their chunks relative to wherever their remoteEntry.js / manifest was loaded from.
      publicPath: isHost ? '/' : 'auto',
      uniqueName: containerName,
      filename: '[name].[contenthash:8].js',
      chunkFilename: '[name].[contenthash:8].js',
      cssFilename: '[name].[contenthash:8].css',
      cssChunkFilename: '[name].[contenthash:8].css',
      clean: true,
    },
    resolve: {
      extensions: ['.ts', '.tsx', '.js', '.jsx', '.json'],
      alias: {
        '@wordcut/ui$': path.join(workspaceRoot, 'libs/ui/src/index.ts'),
        '@wordcut/contracts$': path.join(workspaceRoot, 'libs/contracts/src/index.ts'),
        // the pure domain libs the editor shares with the services (browser-safe, side-effect free)
        '@wordcut/transcript$': path.join(workspaceRoot, 'libs/transcript/src/index.ts'),
        '@wordcut/edit-list$': path.join(workspaceRoot, 'libs/edit-list/src/index.ts'),
        '@wordcut/editor-core$': path.join(workspaceRoot, 'libs/editor-core/src/index.ts'),
        '@wordcut/publishing$': path.join(workspaceRoot, 'libs/publishing/src/index.ts'),
      },
    },
    module: { rules },
    plugins,
    performance: false,
    stats: 'errors-warnings',
    // The MF manifest plugin logs that publicPath 'auto' resolves at run time: that is the intent.
    infrastructureLogging: { level: 'error' },
    experiments: { css: isHost },
  };
}

module.exports = { createAppConfig, sharedModules };
