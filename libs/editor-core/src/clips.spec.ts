import {
  ASPECT_RATIOS,
  CLIP_POLL_INTERVAL_MS,
  DEFAULT_ASPECT_RATIO,
  EXPORT_LIMIT_TOOLTIP,
  PROCESSING_CLIP_PROGRESS,
  QUICK_EXPORTS,
  clipErrorToast,
  clipProgress,
  clipsPollInterval,
  downloadFileName,
  quickExportName,
  selectionTimeRange,
  validateClipName,
} from './clips';

describe('aspect ratios', () => {
  it('lists the six ratios in order with their export sizes', () => {
    expect(ASPECT_RATIOS.map((a) => [a.ratio, a.name, a.width, a.height, a.description])).toEqual([
      ['Original', 'Original', null, null, 'Native size'],
      ['16:9', 'Landscape', 1920, 1080, '1920x1080'],
      ['9:16', 'Story', 1080, 1920, '1080x1920'],
      ['1:1', 'Square', 1080, 1080, '1080x1080'],
      ['4:5', 'Portrait', 1080, 1350, '1080x1350'],
      ['21:9', 'Cinematic', 2560, 1080, '2560x1080'],
    ]);
    expect(DEFAULT_ASPECT_RATIO).toBe('Original');
  });

  it('is frozen', () => {
    expect(Object.isFrozen(ASPECT_RATIOS)).toBe(true);
    expect(Object.isFrozen(ASPECT_RATIOS[1])).toBe(true);
    expect(Object.isFrozen(QUICK_EXPORTS)).toBe(true);
  });

  it('has Quick Export presets for square, story and landscape', () => {
    expect(QUICK_EXPORTS).toEqual([
      { label: 'Square 1:1', kind: 'Square', ratio: '1:1' },
      { label: 'Story 9:16', kind: 'Story', ratio: '9:16' },
      { label: 'Landscape 16:9', kind: 'Landscape', ratio: '16:9' },
    ]);
    for (const q of QUICK_EXPORTS) expect(ASPECT_RATIOS.some((a) => a.ratio === q.ratio && a.name === q.kind)).toBe(true);
  });
});

describe('quickExportName', () => {
  it('names clips {kind} Clip {local YYYY-MM-DD HH.mm.ss}', () => {
    const at = new Date(2024, 2, 5, 14, 7, 9); // local time
    expect(quickExportName('Story', at)).toBe('Story Clip 2024-03-05 14.07.09');
    expect(quickExportName('Square', new Date(2025, 11, 31, 0, 0, 0))).toBe('Square Clip 2025-12-31 00.00.00');
    expect(quickExportName('Landscape', new Date(2025, 0, 1, 23, 59, 59))).toBe('Landscape Clip 2025-01-01 23.59.59');
  });

  it('is a valid file name as it is', () => {
    const name = quickExportName('Story', new Date(2024, 2, 5, 14, 7, 9));
    expect(downloadFileName(name, 'mp4')).toBe(`${name}.mp4`);
  });
});

describe('selectionTimeRange', () => {
  const words = [
    { start: 0, end: 0.4 },
    { start: 0.5, end: 0.9 },
    { start: 1, end: 1.4 },
    { start: 2, end: 2 },
    { start: NaN, end: 3 },
  ];

  it('spans the earliest start to the latest end, in any index order', () => {
    expect(selectionTimeRange(words, [1])).toEqual({ start: 0.5, end: 0.9 });
    expect(selectionTimeRange(words, [2, 0])).toEqual({ start: 0, end: 1.4 });
    expect(selectionTimeRange(words, [0, 1, 2])).toEqual({ start: 0, end: 1.4 });
  });

  it('ignores bad indices and words without finite times', () => {
    expect(selectionTimeRange(words, [-1, 1, 99, 1.5, NaN, 4])).toEqual({ start: 0.5, end: 0.9 });
  });

  it('is null for nothing usable or an empty range', () => {
    expect(selectionTimeRange(words, [])).toBeNull();
    expect(selectionTimeRange(words, [7, -2])).toBeNull();
    expect(selectionTimeRange(words, [3])).toBeNull();
    expect(selectionTimeRange([], [0])).toBeNull();
  });
});

describe('validateClipName', () => {
  it('requires a non-empty trimmed name', () => {
    expect(validateClipName('')).toBe('Please enter a clip name');
    expect(validateClipName('   \t')).toBe('Please enter a clip name');
    expect(validateClipName(' Intro ')).toBeNull();
  });

  it('allows at most 200 characters after trimming', () => {
    expect(validateClipName('a'.repeat(200))).toBeNull();
    expect(validateClipName(`  ${'a'.repeat(200)}  `)).toBeNull();
    expect(validateClipName('a'.repeat(201))).toBe('Clip names can be at most 200 characters');
  });
});

describe('clip status', () => {
  it('polls every 2000 ms while a clip is pending or processing', () => {
    expect(CLIP_POLL_INTERVAL_MS).toBe(2000);
    expect(clipsPollInterval([{ status: 'completed' }, { status: 'pending' }])).toBe(2000);
    expect(clipsPollInterval([{ status: 'processing' }])).toBe(2000);
    expect(clipsPollInterval([{ status: 'completed' }, { status: 'failed' }])).toBe(false);
    expect(clipsPollInterval([])).toBe(false);
    expect(clipsPollInterval(undefined)).toBe(false);
  });

  it('shows a fixed 65% bar only while processing', () => {
    expect(PROCESSING_CLIP_PROGRESS).toBe(65);
    expect(['pending', 'processing', 'completed', 'failed'].map(clipProgress)).toEqual([null, 65, null, null]);
  });
});

describe('downloadFileName', () => {
  it('appends the extension', () => {
    expect(downloadFileName('My clip', 'mp4')).toBe('My clip.mp4');
    expect(downloadFileName('My clip', 'vtt')).toBe('My clip.vtt');
  });

  it('replaces characters invalid in file names and trims', () => {
    expect(downloadFileName('  a/b\\c:d*e?f"g<h>i|j  ', 'mp4')).toBe('a_b_c_d_e_f_g_h_i_j.mp4');
    expect(downloadFileName('tab\there\u0000\u007f', 'vtt')).toBe('tab_here__.vtt');
    expect(downloadFileName('Clip 12:30', 'mp4')).toBe('Clip 12_30.mp4');
  });

  it('makes runs of white space one space and keeps at most 120 characters (whole characters, not bytes)', () => {
    expect(downloadFileName('a  b \u00a0 c', 'mp4')).toBe('a b c.mp4');
    expect(downloadFileName('é'.repeat(130), 'mp4')).toBe(`${'é'.repeat(120)}.mp4`);
    expect(downloadFileName(`${'x'.repeat(119)} tail`, 'vtt')).toBe(`${'x'.repeat(119)}.vtt`);
    expect(downloadFileName('😀'.repeat(121), 'mp4')).toBe(`${'😀'.repeat(120)}.mp4`);
  });

  it('falls back to clip for an empty name', () => {
    expect(downloadFileName('', 'mp4')).toBe('clip.mp4');
    expect(downloadFileName('   ', 'vtt')).toBe('clip.vtt');
  });
});

describe('clipErrorToast', () => {
  const quota = {
    title: 'Export limit reached',
    description: "You've reached your monthly export limit. Please upgrade your plan to continue.",
  };
  const generic = { title: 'Failed to create clip', description: 'Please try again.' };

  it('maps 429 quota_exceeded to the export limit toast', () => {
    expect(clipErrorToast(429, { error: 'quota_exceeded', message: 'Monthly export quota exceeded' })).toEqual(quota);
    expect(clipErrorToast(429, { code: 'quota_exceeded' })).toEqual(quota);
  });

  it('shows the server message otherwise', () => {
    expect(clipErrorToast(400, { error: 'Bad Request', message: 'Clip range is empty' })).toEqual({
      title: 'Clip creation failed',
      description: 'Clip range is empty',
    });
    expect(clipErrorToast(403, { error: 'quota_exceeded', message: 'Forbidden' })).toEqual({
      title: 'Clip creation failed',
      description: 'Forbidden',
    });
    expect(clipErrorToast(429, { error: 'Too Many Requests', message: 'Slow down' }).title).toBe('Clip creation failed');
  });

  it('falls back to the generic toast without a message', () => {
    expect(clipErrorToast(null, null)).toEqual(generic);
    expect(clipErrorToast(500, {})).toEqual(generic);
    expect(clipErrorToast(500, { message: '  ' })).toEqual(generic);
    expect(clipErrorToast(429, null)).toEqual(generic);
  });

  it('has the quota tooltip text', () => {
    expect(EXPORT_LIMIT_TOOLTIP).toBe('Export limit reached. Please upgrade your plan.');
  });
});
