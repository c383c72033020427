/** A local file read as a ByteSource, and the sample tables of a local file. */
import { open, stat } from 'node:fs/promises';
import type { ByteSource } from './boxes';
import { readMovie, type ReadMovieOptions } from './movie';
import type { MovieTables } from './sample-table';

export type ClosableSource = ByteSource & { close(): Promise<void> };

/** A regular local file (never a FIFO or device: opening those could block or never end). */
export async function openFileSource(path: string): Promise<ClosableSource> {
  if (!(await stat(path)).isFile()) throw Object.assign(new Error('Not a regular file'), { code: 'ENOTREGULAR' });
  const handle = await open(path, 'r');
  const { size } = await handle.stat();
  return {
    size,
    read: async (offset, length) => {
      const buf = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buf, 0, length, offset);
      if (bytesRead !== length) throw new Error('I/O error: the file changed while it was read');
      return buf;
    },
    close: () => handle.close(),
  };
}

/** The sample tables of an MP4/MOV file, read through the same checks as an upload (movie.ts). */
export async function readMovieTables(path: string, o: ReadMovieOptions = {}): Promise<MovieTables> {
  const source = await openFileSource(path);
  try {
    return await readMovie(source, o);
  } finally {
    await source.close();
  }
}
