import { FULL_SEARCH_WORK, MIN_CORRELATION, MIN_MATCH_FRAMES, SHORT_MATCH_CORRELATION, SURE_MATCH_FRAMES, findKnownAudio, hasSpeech, matchEnergy, requiredCorrelation } from './transcription-match';

/** A seeded PRNG (mulberry32), so the synthetic envelopes are the same every run. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A speech-like envelope: words of 15..45 loud frames (level 170..220) between pauses of 3..60 silent frames. */
function speechEnvelope(frames: number, seed: number): Uint8Array {
  const r = rng(seed);
  const out = new Uint8Array(frames);
  let i = Math.floor(r() * 40);
  while (i < frames) {
    const word = 15 + Math.floor(r() * 30);
    const level = 170 + r() * 50;
    for (let k = 0; k < word && i < frames; k++, i++) out[i] = Math.round(level + 12 * Math.sin(k / 3) + r() * 6);
    i += 3 + Math.floor(r() * 57);
  }
  return out;
}

/** The chunk as another codec and gain would give it: levels moved by `gain`, a little noise, silence kept. */
function reencoded(x: Uint8Array, seed: number, gain = -8): Uint8Array {
  const r = rng(seed);
  return x.map((v) => (v === 0 ? 0 : Math.max(0, Math.min(255, Math.round(v + gain + (r() - 0.5) * 8)))));
}

function noise(frames: number, seed: number): Uint8Array {
  const r = rng(seed);
  return Uint8Array.from({ length: frames }, () => 150 + Math.floor(r() * 70));
}

describe('matchEnergy', () => {
  const media = speechEnvelope(3000, 1);

  it('finds the offset of a re-encoded stretch, with a high correlation', () => {
    const chunk = reencoded(media.slice(1234, 2034), 2);
    const m = matchEnergy(chunk, media)!;
    expect(m.offsetFrames).toBe(1234);
    expect(m.score).toBeGreaterThan(0.95);
  });

  it('finds the whole media at offset 0', () => {
    expect(matchEnergy(reencoded(media, 3), media)).toMatchObject({ offsetFrames: 0 });
  });

  it('finds a chunk at the very end, running past it by up to the overhang', () => {
    const tail = new Uint8Array(550);
    tail.set(reencoded(media.slice(2500), 4));
    expect(matchEnergy(tail, media, { maxOverhangFrames: 100 })).toMatchObject({ offsetFrames: 2500 });
    // without the overhang the chunk cannot sit there
    expect(matchEnergy(tail, media)!.offsetFrames).toBeLessThanOrEqual(2450);
    // longer than media + overhang: no offset at all
    expect(matchEnergy(new Uint8Array(3101).fill(200), media, { maxOverhangFrames: 100 })).toBeNull();
  });

  it('scores noise low', () => {
    expect(matchEnergy(noise(800, 5), media)!.score).toBeLessThan(0.4);
  });

  it('scores a flat chunk 0 (nothing to correlate)', () => {
    expect(matchEnergy(new Uint8Array(500).fill(200), media)!.score).toBe(0);
  });

  it('searches long media on block means first and still lands on the exact frame', () => {
    const long = speechEnvelope(60_000, 6);
    const chunk = reencoded(long.slice(31_337, 51_337), 7);
    expect(chunk.length * long.length).toBeGreaterThan(FULL_SEARCH_WORK);
    const m = matchEnergy(chunk, long)!;
    expect(m.offsetFrames).toBe(31_337);
    expect(m.score).toBeGreaterThan(0.95);
  });
});

describe('findKnownAudio', () => {
  const known = [
    { id: 'demo', energy: speechEnvelope(3000, 10) },
    { id: 'talk', energy: speechEnvelope(2200, 11) },
    { id: 'lesson', energy: speechEnvelope(8000, 12) },
  ];

  it('names the recording and offset of a chunk', () => {
    const chunk = reencoded(known[1]!.energy.slice(700, 1500), 13);
    expect(findKnownAudio(chunk, known, { maxOverhangFrames: 100 })).toMatchObject({ id: 'talk', offsetFrames: 700 });
    const late = reencoded(known[2]!.energy.slice(6000), 14);
    expect(findKnownAudio(late, known, { maxOverhangFrames: 100 })).toMatchObject({ id: 'lesson', offsetFrames: 6000 });
  });

  it('refuses noise and another recording', () => {
    expect(findKnownAudio(noise(1000, 15), known)).toBeNull();
    expect(findKnownAudio(speechEnvelope(1000, 16), known)).toBeNull();
  });

  it('refuses silence and near-silence, even where the media is silent too', () => {
    expect(hasSpeech(new Uint8Array(1000))).toBe(false);
    expect(findKnownAudio(new Uint8Array(1000), known)).toBeNull();
    const hum = new Uint8Array(1000).fill(60).map((v, i) => v + (i % 7));
    expect(findKnownAudio(hum, known)).toBeNull();
  });

  it('accepts from the required correlation up: MIN_CORRELATION for long chunks, more for short ones', () => {
    expect(requiredCorrelation(MIN_MATCH_FRAMES - 1)).toBe(Infinity);
    expect(requiredCorrelation(MIN_MATCH_FRAMES)).toBeCloseTo(SHORT_MATCH_CORRELATION, 9);
    expect(requiredCorrelation((MIN_MATCH_FRAMES + SURE_MATCH_FRAMES) / 2)).toBeCloseTo((MIN_CORRELATION + SHORT_MATCH_CORRELATION) / 2, 9);
    expect([SURE_MATCH_FRAMES, 60_000].map(requiredCorrelation)).toEqual([MIN_CORRELATION, MIN_CORRELATION]);
    const chunk = reencoded(known[0]!.energy.slice(100, 1300), 17);
    const found = findKnownAudio(chunk, known)!;
    expect(found.score).toBeGreaterThanOrEqual(MIN_CORRELATION);
    expect(findKnownAudio(chunk, known, { minCorrelation: found.score + 0.001 })).toBeNull();
  });

  it('refuses a chunk too short to tell, even a true one', () => {
    const short = known[0]!.energy.slice(400, 400 + MIN_MATCH_FRAMES - 1);
    expect(hasSpeech(short)).toBe(true);
    expect(matchEnergy(short, known[0]!.energy)).toMatchObject({ offsetFrames: 400, score: 1 });
    expect(findKnownAudio(short, known)).toBeNull();
  });

  it('refuses a short chunk of another recording that fits somewhere by chance', () => {
    // the 2.5 s stretch of another recording that fits the lesson best
    const other = speechEnvelope(6000, 18);
    const stretches = Array.from({ length: 30 }, (_, i) => other.slice(i * 190, i * 190 + 250));
    const [best] = stretches.map((c) => ({ c, score: matchEnergy(c, known[2]!.energy)!.score })).sort((a, b) => b.score - a.score);
    expect(best!.score).toBeGreaterThan(MIN_CORRELATION);
    expect(findKnownAudio(best!.c, known)).toBeNull();
  });
});
