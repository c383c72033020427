/**
 * The images are built by platform teams, not here (no Docker engine in CI), so a workspace added
 * without its lines in docker/*.Dockerfile would only fail at their build. This reads the
 * Dockerfiles and the workspaces and fails first: every workspace's package.json reaches `npm ci`,
 * every library a service compiles against is built and shipped, every library an app bundles is
 * in the web build.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const read = (file: string): string => readFileSync(path.join(ROOT, file), 'utf8');
const SERVICE_DOCKERFILE = read('docker/service.Dockerfile');
const WEB_DOCKERFILE = read('docker/web.Dockerfile');

function workspaces(): string[] {
  return ['libs', 'services', 'apps'].flatMap((dir) =>
    readdirSync(path.join(ROOT, dir))
      .map((name) => `${dir}/${name}`)
      .filter((ws) => existsSync(path.join(ROOT, ws, 'package.json'))),
  );
}

/** The project references of a workspace's tsconfig.json, as workspace paths (libs/x). */
function references(ws: string): string[] {
  const tsconfig = JSON.parse(read(`${ws}/tsconfig.json`)) as { references?: { path: string }[] };
  return (tsconfig.references ?? []).map((r) => path.relative(ROOT, path.resolve(ROOT, ws, r.path)));
}

/** Every library a service compiles against, directly or through another library. */
function serviceLibraries(): string[] {
  const seen = new Set<string>();
  const visit = (ws: string) => {
    for (const ref of references(ws)) {
      if (seen.has(ref)) continue;
      seen.add(ref);
      visit(ref);
    }
  };
  for (const ws of workspaces().filter((w) => w.startsWith('services/'))) visit(ws);
  return [...seen].sort();
}

/** The lines of one stage (`FROM ... AS <stage>` up to the next FROM). */
function stage(dockerfile: string, name: string): string {
  const start = dockerfile.search(new RegExp(`^FROM .* AS ${name}$`, 'm'));
  expect(start).toBeGreaterThanOrEqual(0);
  const next = dockerfile.slice(start + 1).search(/^FROM /m);
  return next < 0 ? dockerfile.slice(start) : dockerfile.slice(start, start + 1 + next);
}

const copies = (text: string, source: string): boolean => new RegExp(`^COPY\\s+${source.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\s`, 'm').test(text);

describe('docker/*.Dockerfile list every workspace', () => {
  it.each(workspaces())('%s/package.json reaches npm ci in both images', (ws) => {
    expect(copies(stage(SERVICE_DOCKERFILE, 'manifests'), `${ws}/package.json`)).toBe(true);
    expect(copies(WEB_DOCKERFILE, `${ws}/package.json`)).toBe(true);
  });

  it('finds the libraries the services compile against', () => {
    expect(serviceLibraries()).toEqual(expect.arrayContaining(['libs/contracts', 'libs/edit-list', 'libs/publishing', 'libs/provider']));
  });

  it.each(serviceLibraries())('%s is built and shipped in the service images', (lib) => {
    const build = stage(SERVICE_DOCKERFILE, 'build');
    expect(copies(build, lib)).toBe(true);
    expect(build).toMatch(new RegExp(`tsc -b[^]*\\s${lib}\\s`));
    expect(copies(stage(SERVICE_DOCKERFILE, 'app'), `--from=build /app/${lib}/dist`)).toBe(true);
  });

  it('the web image builds from every library the apps bundle', () => {
    const build = stage(WEB_DOCKERFILE, 'build');
    const appLibs = workspaces()
      .filter((w) => w.startsWith('apps/'))
      .flatMap((app) => Object.keys((JSON.parse(read(`${app}/package.json`)) as { dependencies?: Record<string, string> }).dependencies ?? {}))
      .filter((dep) => dep.startsWith('@wordcut/'))
      .map((dep) => `libs/${dep.slice('@wordcut/'.length)}`)
      .filter((lib) => existsSync(path.join(ROOT, lib)));
    expect(appLibs.length).toBeGreaterThan(0);
    for (const lib of new Set(appLibs)) expect(copies(build, 'libs') || copies(build, lib)).toBe(true);
  });
});
