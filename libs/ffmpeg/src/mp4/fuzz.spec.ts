/**
 * The short fuzz run of CI: the kept seeds and one fresh one, each a few hundred crafted inputs
 * through the box walk, the movie check and the sample-table parser (fuzz.ts). The long run is
 * `npm run fuzz`.
 */
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fuzzOne, fuzzProperty } from './fuzz';
import { FTYP, box, full, u32, zeros } from './testing';

const { seeds } = JSON.parse(readFileSync(join(__dirname, 'fuzz-seeds.json'), 'utf8')) as { seeds: number[] };
const RUNS = 1000;

describe('MP4 reader under fuzzing: answered, in time, memory linear in the input', () => {
  it.each(seeds)('kept seed %d', async (seed) => {
    await fc.assert(fuzzProperty(), { seed, numRuns: RUNS });
  });

  it('a fresh seed (printed on failure: add it to fuzz-seeds.json once fixed)', async () => {
    await fc.assert(fuzzProperty(), { numRuns: RUNS });
  });

  it('the structures of the security review are answered quickly', async () => {
    // a dref chain: each url entry holds the next dref
    const levels = 20_000;
    const chain = Buffer.alloc(levels * 28);
    for (let k = 0; k < levels; k++) {
      const at = 28 * k;
      chain.writeUInt32BE(chain.length - at, at);
      chain.write('dref', at + 4, 'latin1');
      chain.writeUInt32BE(1, at + 12);
      chain.writeUInt32BE(chain.length - at - 16, at + 16);
      chain.write('url ', at + 20, 'latin1');
    }
    const stsd = full('stsd', 0, u32(1), box('avc1', zeros(78), chain));
    await fuzzOne(Buffer.concat([FTYP, box('moov', box('mvhd', zeros(100)), box('trak', box('mdia', box('minf', box('stbl', stsd)))))]));
    // tracks that claim 12 million samples each in a few bytes
    const trak = box('trak', box('tkhd', zeros(84)), box('mdia', box('mdhd', zeros(24)), box('hdlr', zeros(25)), box('minf', box('stbl', full('stsz', 0, u32(1), u32(12_000_000))))));
    await fuzzOne(Buffer.concat([FTYP, box('moov', box('mvhd', zeros(100)), ...Array.from({ length: 300 }, () => trak))]));
  });
});
