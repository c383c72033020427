import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TranscriptBuildError, parseVtt, parseVttDocument } from './index';

const fixture = (name: string) => readFileSync(join(__dirname, 'fixtures', name), 'utf8');

function buildError(fn: () => unknown): TranscriptBuildError {
  try {
    fn();
  } catch (e) {
    if (e instanceof TranscriptBuildError) return e;
    throw e;
  }
  throw new Error('expected a TranscriptBuildError');
}

describe('parseVtt', () => {
  it('reads plain cues with their times and text', () => {
    const cues = parseVtt('WEBVTT\n\n00:00:01.000 --> 00:00:02.500\nHello there.\n\n00:01:02.250 --> 00:01:04.000\nSecond cue\n');
    expect(cues).toEqual([
      { start: 1, end: 2.5, text: 'Hello there.' },
      { start: 62.25, end: 64, text: 'Second cue' },
    ]);
  });

  it('accepts mm:ss.ttt timestamps, cue ids and cue settings', () => {
    const cues = parseVtt('WEBVTT\n\ncue-1\n01:02.500 --> 01:03.000 align:start position:10%\nshort form\n');
    expect(cues).toEqual([{ id: 'cue-1', start: 62.5, end: 63, text: 'short form' }]);
  });

  it('keeps the lines of multi-line cues', () => {
    const [cue] = parseVtt('WEBVTT\n\n00:00:00.000 --> 00:00:03.000\nfirst line\nsecond   line\n');
    expect(cue!.text).toBe('first line\nsecond line');
    expect(cue!.words).toBeUndefined();
  });

  it('handles BOM, CRLF, NOTE and STYLE blocks, voice tags, italics and entities', () => {
    const doc = parseVttDocument(fixture('interview-crlf.vtt'));
    expect(doc.cues).toEqual([
      { id: 'intro', start: 1, end: 4, text: 'Welcome to the show,\neveryone.', voice: 'Alice' },
      { start: 4.5, end: 6, text: 'Tom & Jerry <3 "cheese"', voice: 'Bob' },
      { start: 6, end: 7, text: 'Really?' },
    ]);
    expect(doc.language).toBeUndefined();
  });

  it('decodes named, decimal and hex character references', () => {
    const [cue] = parseVtt('WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nit&#39;s caf&eacute; 50&nbsp;% a&#x2F;b &hellip;\n');
    // whitespace, no-break spaces included, is collapsed in `text`
    expect(cue!.text).toBe("it's café 50 % a/b …");
  });

  it('gives the words of cues with inline timestamps (YouTube auto-captions)', () => {
    const [cue] = parseVtt(
      'WEBVTT\n\n00:00:03.199 --> 00:00:05.510 align:start position:0%\nprevious line\num<00:00:03.959><c> how</c><00:00:04.200><c> to</c>\n',
    );
    expect(cue!.text).toBe('previous line\num how to');
    expect(cue!.words).toEqual([
      { text: 'previous', start: 3.199 },
      { text: 'line', start: 3.199 },
      { text: 'um', start: 3.199 },
      { text: 'how', start: 3.959 },
      { text: 'to', start: 4.2 },
    ]);
  });

  it('keeps a word split by a timestamp (karaoke syllables) as one word starting at its first part', () => {
    const [cue] = parseVtt('WEBVTT\n\n00:00:01.000 --> 00:00:03.000\nwon<00:00:01.500>der<00:00:02.000> ful\n');
    expect(cue!.words).toEqual([
      { text: 'wonder', start: 1 },
      { text: 'ful', start: 2 },
    ]);
  });

  it('reads the header, including the Language line of YouTube captions', () => {
    const doc = parseVttDocument(fixture('youtube-auto.vtt'));
    expect(doc.headers).toEqual({ Kind: 'captions', Language: 'en' });
    expect(doc.language).toBe('en');
    expect(doc.cues).toHaveLength(10);
    expect(doc.cues.map((c) => c.start)).toEqual([...doc.cues.map((c) => c.start)].sort((a, b) => a - b));
  });

  it('returns no cues for a header-only file', () => {
    expect(parseVtt('WEBVTT\nKind: captions\n\n')).toEqual([]);
    expect(parseVtt('WEBVTT')).toEqual([]);
  });

  it('rejects an empty file as VTT_EMPTY', () => {
    for (const text of ['', '  \n\n', '\ufeff']) {
      const error = buildError(() => parseVtt(text));
      expect(error.code).toBe('VTT_EMPTY');
      expect(error.message).toBe('The subtitle file is empty.');
    }
  });

  it('rejects a file that does not start with WEBVTT', () => {
    for (const text of ['hello world', '<html><body>404</body></html>', 'WEBVTTX\n\n00:00:01.000 --> 00:00:02.000\nx', ' WEBVTT\n']) {
      const error = buildError(() => parseVtt(text));
      expect(error.code).toBe('VTT_INVALID');
      expect(error.message).toBe("The subtitle file is not WebVTT: it must start with 'WEBVTT'.");
      expect(error.line).toBe(1);
    }
  });

  it('says when the file looks like SRT', () => {
    const error = buildError(() => parseVtt('1\n00:00:01,000 --> 00:00:02,000\nhello\n'));
    expect(error.code).toBe('VTT_INVALID');
    expect(error.message).toContain('It looks like an SRT file; convert it to WebVTT first.');
  });

  it('reports an unreadable cue timing with its line number', () => {
    const text = 'WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nok\n\n00:01.5 --> x\nbroken\n\n00:00:03.000 --> 00:00:04.000\nok\n';
    const error = buildError(() => parseVtt(text));
    expect(error.code).toBe('VTT_INVALID');
    expect(error.line).toBe(6);
    expect(error.message).toMatch(/^line 6: invalid timestamp '00:01\.5 --> x': Milliseconds must be given in three digits\./);
  });

  it('counts further bad timing lines', () => {
    const text = 'WEBVTT\n\n00:00 --> 00:00:01.000\na\n\n00:00:02.000 -> 00:00:03.000\nb\n';
    const error = buildError(() => parseVtt(text));
    expect(error.line).toBe(3);
    expect(error.message).toContain('(and 1 more bad cue timing line)');
  });

  it('rejects a timing line with a wrong arrow instead of silently dropping the cue', () => {
    const error = buildError(() => parseVtt('WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nok\n\n00:00:02.000 -> 00:00:03.000\nlost\n'));
    expect(error.code).toBe('VTT_INVALID');
    expect(error.message).toBe("line 6: invalid timestamp '00:00:02.000 -> 00:00:03.000': the start and end times must be separated by ' --> '.");
  });

  it('rejects a cue that ends before it starts', () => {
    const error = buildError(() => parseVtt('WEBVTT\n\n00:00:06.000 --> 00:00:05.000\nbackwards\n'));
    expect(error.code).toBe('VTT_INVALID');
    expect(error.message).toBe('line 3: the cue ends (00:00:05.000) before it starts (00:00:06.000).');
  });

  it('tolerates harmless problems: zero-length cues, unknown tags, unclosed tags, a missing blank line', () => {
    const cues = parseVtt(
      'WEBVTT\n00:00:01.000 --> 00:00:01.000\n<foo>zero</foo> <b>bold\n00:00:02.000 --> 00:00:03.000\nnext\n',
    );
    expect(cues).toEqual([
      { start: 1, end: 1, text: 'zero bold' },
      { start: 2, end: 3, text: 'next' },
    ]);
  });

  it('drops ruby annotations but keeps the base text', () => {
    const [cue] = parseVtt('WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n<ruby>漢<rt>kan</rt>字<rt>ji</rt></ruby>です\n');
    expect(cue!.text).toBe('漢字です');
  });
});
