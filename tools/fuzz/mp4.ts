/**
 * `npm run fuzz`: the long fuzz run of our MP4 reader (libs/ffmpeg/src/mp4/fuzz.ts) and of the
 * Matroska/WebM check (libs/ffmpeg/src/mkv/fuzz.ts), in turns, fresh seeds
 * until FUZZ_SECONDS (default 3600) have passed. Prints progress each minute; on a finding prints
 * the seed and the input (hex) and exits 1.
 */
import fc from 'fast-check';
import { fuzzProperty as matroskaProperty } from '../../libs/ffmpeg/src/mkv/fuzz';
import { fuzzProperty as mp4Property } from '../../libs/ffmpeg/src/mp4/fuzz';

const seconds = Number(process.env['FUZZ_SECONDS'] ?? 3600);
const BATCH = 2000;

async function main(): Promise<void> {
  const until = Date.now() + seconds * 1000;
  let inputs = 0;
  let lastReport = Date.now();
  console.log(`fuzz: the MP4 reader and the Matroska check for ${seconds} s`);
  while (Date.now() < until) {
    const seed = Math.floor(Math.random() * 2 ** 31);
    const property = inputs % (2 * BATCH) === 0 ? mp4Property() : matroskaProperty();
    const r = await fc.check(property, { seed, numRuns: BATCH });
    inputs += r.numRuns;
    if (r.failed) {
      const input = r.counterexample?.[0];
      console.error(`fuzz: finding with seed ${seed} after ${inputs} inputs: ${String(r.errorInstance)}`);
      if (input) console.error(`input (${input.length} bytes): ${input.toString('hex').slice(0, 4000)}`);
      process.exit(1);
    }
    if (Date.now() - lastReport > 60_000) {
      console.log(`fuzz: ${inputs} inputs, no finding (${Math.round((until - Date.now()) / 1000)} s left)`);
      lastReport = Date.now();
    }
  }
  console.log(`fuzz: ${inputs} inputs in ${seconds} s, no finding`);
}

void main();
