import { chmod, chown, mkdir, mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DiskCache } from './disk-cache';

describe('DiskCache', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'wordcut-cache-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const file = async (name: string, bytes: number) => {
    const path = join(dir, name);
    await writeFile(path, Buffer.alloc(bytes, name.charCodeAt(0)));
    return path;
  };

  it('misses, then gives back the bytes it was given, which outlive the entry', async () => {
    const cache = new DiskCache({ dir: join(dir, 'c'), maxBytes: 1000, maxAgeMs: 60_000 });
    expect(await cache.take('a', join(dir, 'out'))).toBe(false);
    await cache.put('a', await file('src', 10));
    expect(await cache.take('a', join(dir, 'out'))).toBe(true);
    expect(await readFile(join(dir, 'out'))).toEqual(Buffer.alloc(10, 's'.charCodeAt(0)));
    await cache.sweep(Date.now() + 120_000);
    expect(await cache.has('a')).toBe(false);
    expect((await readFile(join(dir, 'out'))).length).toBe(10);
  });

  it('keeps the most recently used entries within its byte budget', async () => {
    const cache = new DiskCache({ dir: join(dir, 'c'), maxBytes: 250, maxAgeMs: 3600_000 });
    const t = Date.now() / 1000;
    for (const [i, key] of ['old', 'mid'].entries()) {
      await cache.put(key, await file(key, 100));
      await utimes(join(dir, 'c', DiskCache.entryName(key)), t - 100 + i, t - 100 + i);
    }
    await cache.sweep();
    expect(await cache.usage()).toEqual({ bytes: 200, entries: 2 });
    // using 'old' makes it the most recent; the next entry goes over the budget
    expect(await cache.take('old', join(dir, 'x'))).toBe(true);
    await cache.put('new', await file('new', 100));
    await cache.sweep();
    expect(await cache.has('old')).toBe(true);
    expect(await cache.has('new')).toBe(true);
    expect(await cache.has('mid')).toBe(false);
    expect(await cache.usage()).toEqual({ bytes: 200, entries: 2 });
  });

  it('a cache that cannot write only misses', async () => {
    const blocked = await file('blocked', 1);
    const cache = new DiskCache({ dir: join(blocked, 'c'), maxBytes: 1000, maxAgeMs: 60_000 });
    await expect(cache.put('a', await file('src', 10))).resolves.toBeUndefined();
    expect(await cache.take('a', join(dir, 'out'))).toBe(false);
  });

  it('is this user\'s alone: directory 0700 (tightened if looser), entries 0600', async () => {
    await mkdir(join(dir, 'c'), { mode: 0o755 });
    await chmod(join(dir, 'c'), 0o755);
    const cache = new DiskCache({ dir: join(dir, 'c'), maxBytes: 1000, maxAgeMs: 60_000 });
    await cache.put('a', await file('src', 10));
    expect((await stat(join(dir, 'c'))).mode & 0o777).toBe(0o700);
    expect((await stat(join(dir, 'c', DiskCache.entryName('a')))).mode & 0o777).toBe(0o600);
    expect(await cache.check()).toBeNull();
  });

  // the tests run as root (CI and our machines), which can hand a file to another user
  it('an entry or a directory of another user is not used', async () => {
    const cache = new DiskCache({ dir: join(dir, 'c'), maxBytes: 1000, maxAgeMs: 60_000 });
    await cache.put('a', await file('src', 10));
    await chown(join(dir, 'c', DiskCache.entryName('a')), 65534, 65534);
    expect(await cache.has('a')).toBe(false);
    expect(await cache.take('a', join(dir, 'out'))).toBe(false);
    await mkdir(join(dir, 'theirs'));
    await chown(join(dir, 'theirs'), 65534, 65534);
    const foreign = new DiskCache({ dir: join(dir, 'theirs'), maxBytes: 1000, maxAgeMs: 60_000 });
    expect(await foreign.check()).toMatch(/belongs to another user \(uid 65534\)/);
    await foreign.put('b', await file('src2', 10));
    expect(await foreign.has('b')).toBe(false);
  });
});
