import { createHash, randomUUID } from 'node:crypto';
import { chmod, copyFile, link, lstat, mkdir, readdir, rename, rm, stat, utimes } from 'node:fs/promises';
import { join } from 'node:path';

export interface DiskCacheOptions {
  /** Directory of the cache (shared by every worker process on the machine). */
  dir: string;
  /** Bytes the cache may hold; the least recently used entries go first beyond it. */
  maxBytes: number;
  /** Entries unused this long are removed. */
  maxAgeMs: number;
}

/**
 * A bounded cache of files on local disk, shared by processes through the file system: an entry
 * is one file named by the hash of its key, written under a temporary name and renamed into place
 * (readers see whole entries only), used by hard-linking it into the caller's directory (a link
 * survives the entry's eviction), and kept by recent use (a hit refreshes its time). Over its byte
 * budget or age, the least recently used entries are removed.
 *
 * Only this user reads or writes it: the directory is 0700 and entries 0600; a directory owned by
 * someone else (or a symlink) disables the cache, and an entry owned by someone else is a miss.
 */
export class DiskCache {
  private sweeping: Promise<void> | null = null;
  private sinceSweep = 0;
  private ready: Promise<string | null> | null = null;

  constructor(private readonly o: DiskCacheOptions) {}

  /** Null when the directory is ours alone (made 0700 if it was looser), else why the cache is off. */
  check(): Promise<string | null> {
    this.ready ??= (async () => {
      await mkdir(this.o.dir, { recursive: true, mode: 0o700 }).catch(() => undefined);
      const s = await lstat(this.o.dir).catch(() => null);
      if (!s) return `the cache directory ${this.o.dir} cannot be made`;
      if (!s.isDirectory()) return `the cache directory ${this.o.dir} is not a directory`;
      if (s.uid !== process.getuid?.()) return `the cache directory ${this.o.dir} belongs to another user (uid ${s.uid})`;
      if ((s.mode & 0o077) !== 0) await chmod(this.o.dir, 0o700);
      return null;
    })();
    return this.ready;
  }

  /** An entry written by another user is not trusted. */
  private async ours(path: string): Promise<boolean> {
    const s = await lstat(path).catch(() => null);
    return s !== null && s.isFile() && s.uid === process.getuid?.();
  }

  /** The file name of a key: a hash, so any text (object keys, settings) can be a key. */
  static entryName(key: string): string {
    return createHash('sha256').update(key).digest('hex');
  }

  private pathOf(key: string): string {
    return join(this.o.dir, DiskCache.entryName(key));
  }

  /** Places the entry of `key` at `dest` (hard link, or a copy across file systems); false on a miss. */
  async take(key: string, dest: string): Promise<boolean> {
    const path = this.pathOf(key);
    if ((await this.check()) !== null || !(await this.ours(path))) return false;
    try {
      await placeFile(path, dest);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return false;
      throw err;
    }
    const now = new Date();
    await utimes(path, now, now).catch(() => undefined);
    return true;
  }

  /** Whether `key` has an entry (without using it). */
  async has(key: string): Promise<boolean> {
    return (await this.check()) === null && this.ours(this.pathOf(key));
  }

  /**
   * Keeps the file at `src` (left in place, linked or copied) as the entry of `key`; an existing
   * entry is replaced by the same bytes. Never fails the caller: a cache that cannot write is a
   * cache that misses.
   */
  async put(key: string, src: string): Promise<void> {
    try {
      if ((await this.check()) !== null) return;
      const tmp = join(this.o.dir, `.tmp-${randomUUID()}`);
      await placeFile(src, tmp);
      await chmod(tmp, 0o600);
      await rename(tmp, this.pathOf(key));
      const size = (await stat(src)).size;
      this.sinceSweep += size;
      if (this.sinceSweep > this.o.maxBytes / 20) void this.sweep();
    } catch {
      // a full disk or a vanished directory: the next render makes the piece again
    }
  }

  /** Removes entries older than maxAgeMs, then the least recently used until under maxBytes. */
  sweep(now = Date.now()): Promise<void> {
    this.sweeping ??= this.doSweep(now).finally(() => {
      this.sweeping = null;
    });
    return this.sweeping;
  }

  private async doSweep(now: number): Promise<void> {
    this.sinceSweep = 0;
    let names: string[];
    try {
      names = await readdir(this.o.dir);
    } catch {
      return;
    }
    const entries: Array<{ path: string; size: number; used: number }> = [];
    for (const name of names) {
      const path = join(this.o.dir, name);
      const s = await stat(path).catch(() => null);
      if (!s) continue;
      // a temporary file older than an hour belongs to a process that died while writing it
      if (name.startsWith('.tmp-')) {
        if (now - s.mtimeMs > 3600_000) await rm(path, { force: true });
        continue;
      }
      entries.push({ path, size: s.size, used: s.mtimeMs });
    }
    entries.sort((a, b) => b.used - a.used);
    let total = 0;
    for (const e of entries) {
      total += e.size;
      if (total > this.o.maxBytes || now - e.used > this.o.maxAgeMs) await rm(e.path, { force: true });
    }
  }

  /** Bytes and entries held now. */
  async usage(): Promise<{ bytes: number; entries: number }> {
    let bytes = 0;
    let entries = 0;
    for (const name of await readdir(this.o.dir).catch(() => [] as string[])) {
      if (name.startsWith('.tmp-')) continue;
      const s = await stat(join(this.o.dir, name)).catch(() => null);
      if (s) {
        bytes += s.size;
        entries++;
      }
    }
    return { bytes, entries };
  }
}

/** Hard-links `src` to `dest` (replacing it), or copies it when they are on different file systems. */
async function placeFile(src: string, dest: string): Promise<void> {
  await rm(dest, { force: true });
  try {
    await link(src, dest);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    await copyFile(src, dest);
  }
}
