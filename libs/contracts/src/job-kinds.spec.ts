import { JOB_ID_PREFIX, JOB_KINDS, RENDER_JOB_KINDS, excludeEachOther, jobKindFromId, jobKindLabel, jobKindSchema } from './jobs';

const UUID = '0f8fad5b-d9cb-469f-a165-70867728950e';

describe('the job-kind registry', () => {
  it('holds every kind, each id prefix its name', () => {
    expect(Object.keys(JOB_KINDS).sort()).toEqual([...jobKindSchema.options].sort());
    for (const kind of jobKindSchema.options) {
      expect(JOB_ID_PREFIX[kind]).toBe(`${kind}_`);
      expect(jobKindFromId(`${JOB_ID_PREFIX[kind]}${UUID}`)).toBe(kind);
    }
  });

  it('the render kinds are its version family, and they alone exclude each other', () => {
    const version = jobKindSchema.options.filter((k) => JOB_KINDS[k].family === 'version');
    expect([...RENDER_JOB_KINDS].sort()).toEqual(version.sort());
    for (const a of jobKindSchema.options) for (const b of jobKindSchema.options) expect(excludeEachOther(a, b)).toBe(version.includes(a) && version.includes(b));
  });

  it('every version kind has an overlay; Active Jobs labels as the product names them', () => {
    for (const k of RENDER_JOB_KINDS) expect(JOB_KINDS[k].overlay?.title).toEqual(expect.any(String));
    expect([`cut_${UUID}`, `filler_${UUID}`, `silence_${UUID}`, `caption_${UUID}`, `mute_${UUID}`, `clip_${UUID}`, 'cut', 'xcut_1', ''].map(jobKindLabel)).toEqual([
      'Apply Cuts', 'Remove Filler Words', 'Remove Silences', 'Burn Captions', 'Processing', 'Processing', 'Processing', 'Processing', 'Processing',
    ]);
  });
});
