import { randomUUID } from 'node:crypto';
import { interpretJobInput, jobOwner } from './job-input';

const probe = { objectKey: 'uploads/a.mp4', originalName: 'a.mp4', sizeBytes: 10 };
const render = (userId: string | null) => ({
  videoId: randomUUID(),
  userId,
  inputKey: 'videos/v/original.mp4',
  outputKey: 'videos/v/renders/j.mp4',
  segments: [{ start: 0, end: 1 }],
  volumes: [],
  captions: null,
  reframe: null,
  summary: 'Cut 1 word',
});

describe('interpretJobInput', () => {
  it('reads probe input for probe jobs and render input for every other kind', () => {
    expect(interpretJobInput('probe', probe)).toEqual({ ok: true, value: { family: 'probe', input: probe } });
    const r = render('u1');
    for (const kind of ['cut', 'filler', 'silence', 'caption', 'mute', 'reorder', 'clip'] as const) {
      expect(interpretJobInput(kind, r)).toEqual({ ok: true, value: { family: 'render', input: r } });
    }
  });

  it('refuses an input of the other shape, naming the kind', () => {
    const wrong = interpretJobInput('cut', probe);
    expect(wrong.ok).toBe(false);
    if (!wrong.ok) expect(wrong.error).toMatch(/^invalid cut job input/);
    expect(interpretJobInput('probe', render('u1')).ok).toBe(false);
    expect(interpretJobInput('keymoments', render('u1')).ok).toBe(false);
  });

  it('reads key-moment input for key-moment jobs, which belong to their video and user', () => {
    const k = {
      videoId: randomUUID(),
      userId: 'u3',
      mediaKey: 'videos/v/original/o.mp4',
      hasAudio: true,
      energyKey: 'videos/v/waveform/original.energy',
      scenesKey: 'videos/v/waveform/original.scenes.json',
      wordsKey: 'videos/v/keymoments/j.words.json',
      resultKey: 'videos/v/keymoments/j.json',
      editVersion: 2,
      transcriptVersion: 1,
      params: 'rules=2;model=local',
      summary: 'Find key moments in 40 words',
    };
    expect(interpretJobInput('keymoments', k)).toEqual({ ok: true, value: { family: 'keymoments', input: k } });
    expect(jobOwner('keymoments', k)).toEqual({ videoId: k.videoId, userId: 'u3' });
    expect(interpretJobInput('cut', k).ok).toBe(false);
  });
});

describe('jobOwner', () => {
  it('names the video and user of render jobs, the user of probe jobs, and nobody for invalid input', () => {
    const r = render('u1');
    expect(jobOwner('mute', r)).toEqual({ videoId: r.videoId, userId: 'u1' });
    expect(jobOwner('clip', render(null))).toMatchObject({ userId: null });
    expect(jobOwner('probe', probe)).toEqual({ videoId: null, userId: null });
    expect(jobOwner('probe', { ...probe, userId: 'u2' })).toEqual({ videoId: null, userId: 'u2' });
    expect(jobOwner('cut', probe)).toEqual({ videoId: null, userId: null });
  });
});
