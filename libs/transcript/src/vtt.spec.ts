import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_TRANSCRIPT_WARNINGS, TranscriptBuildError, parseVtt, parseVttDocument } from './index';
import { thrownBy } from '../../../tools/testing/thrown';

const fixture = (name: string) => readFileSync(join(__dirname, 'fixtures', name), 'utf8');

const buildError = (fn: () => unknown): TranscriptBuildError => thrownBy(fn, TranscriptBuildError);

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
    expect(doc.warnings).toEqual([]);
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

  it('skips a cue whose timing cannot be read, with a warning naming its line, and keeps the others', () => {
    const text = 'WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nok\n\n00:01.5 --> x\nbroken\n\n00:00:03.000 --> 00:00:04.000\nok\n';
    const doc = parseVttDocument(text);
    expect(doc.cues.map((c) => c.start)).toEqual([0, 3]);
    expect(doc.warnings).toEqual([{ line: 6, message: "cue at line 6 skipped: timestamp '00:01.5' is not valid (the milliseconds need exactly three digits)" }]);
  });

  it('refuses a file with no usable cue, naming the first problem and counting the others', () => {
    const text = 'WEBVTT\n\n00:00 --> 00:00:01.000\na\n\n00:00:02.000 -> 00:00:03.000\nb\n';
    const error = buildError(() => parseVtt(text));
    expect(error.code).toBe('VTT_INVALID');
    expect(error.line).toBe(3);
    expect(error.message).toBe(
      "The subtitle file has no usable cue: cue at line 3 skipped: timestamp '00:00' is not valid (the seconds must be followed by '.' and three digits) (and 1 more skipped).",
    );
  });

  it('does not drop a cue with a wrong arrow silently: it is skipped with a warning', () => {
    const doc = parseVttDocument('WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nok\n\n00:00:02.000 -> 00:00:03.000\nlost\n');
    expect(doc.cues).toEqual([{ start: 1, end: 2, text: 'ok' }]);
    expect(doc.warnings).toEqual([
      { line: 6, message: "cue at line 6 skipped: '00:00:02.000 -> 00:00:03.000' is not a cue timing line (the start and end times are separated by '-->')" },
    ]);
  });

  it('keeps a cue that ends before it starts, with its start as its end, and says so', () => {
    const doc = parseVttDocument('WEBVTT\n\n00:00:06.000 --> 00:00:05.000\nbackwards\n');
    expect(doc.cues).toEqual([{ start: 6, end: 6, text: 'backwards' }]);
    expect(doc.warnings).toEqual([{ line: 3, message: 'cue at line 3 ends (00:00:05.000) before it starts (00:00:06.000): kept with its start as its end' }]);
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

/** [id, start, end, text] of each cue, for compact expectations. */
const cueRows = (text: string) => parseVtt(text).map((c) => [c.id ?? '', c.start, c.end, c.text]);
const warningsOf = (text: string) => parseVttDocument(text).warnings;
const messages = (text: string) => warningsOf(text).map((w) => w.message);

describe('the WebVTT parser algorithm, rule by rule', () => {
  describe('line terminators', () => {
    const cues = [
      ['', 1, 2, 'one'],
      ['b', 2, 3, 'two\nlines'],
    ];
    it('reads LF, CRLF and CR alone alike, with the same line numbers', () => {
      const lines = ['WEBVTT', '', '00:00:01.000 --> 00:00:02.000', 'one', '', 'b', '00:00:02.000 --> 00:00:03.000', 'two', 'lines', '', '00:00.000 --> x', 'bad', ''];
      for (const eol of ['\n', '\r\n', '\r']) {
        const text = lines.join(eol);
        expect(cueRows(text)).toEqual(cues);
        expect(warningsOf(text)).toEqual([{ line: 11, message: "cue at line 11 skipped: timestamp 'x' is not valid (it must start with a digit)" }]);
      }
    });

    it('reads a file that mixes them', () => {
      expect(cueRows('WEBVTT\r\n\r00:00:01.000 --> 00:00:02.000\none\r\n\nb\r00:00:02.000 --> 00:00:03.000\r\ntwo\nlines\r')).toEqual(cues);
    });

    it('does not merge cues of a CR-only file', () => {
      const text = 'WEBVTT\r\r00:00:01.000 --> 00:00:02.000\rfirst\r\r00:00:03.000 --> 00:00:04.000\rsecond\r';
      expect(cueRows(text)).toEqual([
        ['', 1, 2, 'first'],
        ['', 3, 4, 'second'],
      ]);
    });

    it('takes CR CR as two line ends (a blank line), and LF CR too', () => {
      expect(cueRows('WEBVTT\n\n00:00:01.000 --> 00:00:02.000\none\n\rtwo\n')).toEqual([['', 1, 2, 'one']]);
      expect(messages('WEBVTT\n\n00:00:01.000 --> 00:00:02.000\none\n\rtwo\n')).toEqual([
        "text at line 6 skipped: it is not in a cue (a blank line ends a cue's text): 'two'",
      ]);
    });

    it('turns NULL characters into U+FFFD', () => {
      const [cue] = parseVtt('WEBVTT\n\nid\u0000\n00:00:01.000 --> 00:00:02.000\na\u0000b\n');
      expect(cue).toEqual({ id: 'id\ufffd', start: 1, end: 2, text: 'a\ufffdb' });
    });
  });

  describe('the signature', () => {
    const cue = '\n\n00:00:01.000 --> 00:00:02.000\nhello\n';
    it.each([
      ['WEBVTT', 'WEBVTT'],
      ['WEBVTT and text', 'WEBVTT FILE'],
      ['WEBVTT, a tab and text', 'WEBVTT\tx'],
      ['a BOM before WEBVTT', '\ufeffWEBVTT'],
      ['WEBVTT and trailing spaces', 'WEBVTT   '],
    ])('accepts %s', (_, signature) => {
      expect(cueRows(signature + cue)).toEqual([['', 1, 2, 'hello']]);
      expect(parseVtt(signature)).toEqual([]);
    });

    it.each([
      ['WEBVTT followed by a letter', 'WEBVTTX'],
      ['WEBVTT followed by a dash', 'WEBVTT-'],
      ['a truncated signature', 'WEBVT'],
      ['lower case', 'webvtt'],
      ['a leading blank line', '\nWEBVTT'],
      ['a leading space', ' WEBVTT'],
      ['two BOMs', '\ufeff\ufeffWEBVTT'],
      ['a BOM and another text', '\ufeffWEBVTX'],
    ])('refuses %s, at line 1', (_, signature) => {
      const error = buildError(() => parseVtt(signature + cue));
      expect(error.code).toBe('VTT_INVALID');
      expect(error.line).toBe(1);
      expect(error.message).toBe("The subtitle file is not WebVTT: it must start with 'WEBVTT'.");
    });
  });

  describe('the header', () => {
    it('reads past any text in the header; Key: value lines become headers', () => {
      const doc = parseVttDocument('WEBVTT FILE\nsome free text\nX-TIMESTAMP-MAP=LOCAL:00:00:00.000,MPEGTS:0\nKind: captions\n\n00:00:01.000 --> 00:00:02.000\nhi\n');
      expect(doc.headers).toEqual({ 'X-TIMESTAMP-MAP=LOCAL': '00:00:00.000,MPEGTS:0', Kind: 'captions' });
      expect(doc.cues).toHaveLength(1);
      expect(doc.warnings).toEqual([]);
    });

    it('ends the header at a line with "-->", which starts the first cue', () => {
      const doc = parseVttDocument('WEBVTT\nLanguage: de\n00:00:01.000 --> 00:00:02.000\nhallo\n');
      expect(doc.language).toBe('de');
      expect(doc.cues).toEqual([{ start: 1, end: 2, text: 'hallo' }]);
    });

    it('reads only the lines right after the signature as the header', () => {
      const doc = parseVttDocument('WEBVTT\n\nLanguage: de\n\n00:00:01.000 --> 00:00:02.000\nhallo\n');
      expect(doc.language).toBeUndefined();
      expect(doc.warnings).toEqual([{ line: 3, message: "text at line 3 skipped: it is not in a cue (a blank line ends a cue's text): 'Language: de'" }]);
    });
  });

  describe('NOTE blocks', () => {
    it('skips comments silently: NOTE alone, NOTE with text, with a tab, over several lines', () => {
      const text = 'WEBVTT\n\nNOTE\n\nNOTE some text\n\nNOTE\tx\n\nNOTE\nline one\nline two\n\n00:00:01.000 --> 00:00:02.000\nhi\n\nNOTE after the cue\n';
      expect(cueRows(text)).toEqual([['', 1, 2, 'hi']]);
      expect(warningsOf(text)).toEqual([]);
    });

    it('takes a NOTE line with "-->" as a timing line, not a comment', () => {
      const text = 'WEBVTT\n\nNOTE-->\ncomment\n\nNOTE --> x\n\n00:00:01.000 --> 00:00:02.000\nhi\n';
      expect(cueRows(text)).toEqual([['', 1, 2, 'hi']]);
      expect(messages(text)).toEqual([
        "cue at line 3 skipped: timestamp 'NOTE' is not valid (it must start with a digit)",
        "cue at line 6 skipped: timestamp 'NOTE' is not valid (it must start with a digit)",
      ]);
    });

    it('takes a NOTE line followed by a timing line as a cue identifier', () => {
      expect(cueRows('WEBVTT\n\nNOTE\n00:00:01.000 --> 00:00:02.000\ntext\n')).toEqual([['NOTE', 1, 2, 'text']]);
    });

    it('does not take NOTEX for a comment', () => {
      expect(messages('WEBVTT\n\nNOTEX\n\n00:00:01.000 --> 00:00:02.000\nhi\n')).toEqual([
        "text at line 3 skipped: it is not in a cue (a blank line ends a cue's text): 'NOTEX'",
      ]);
    });

    it('ends a comment at a line with "-->" after its second line, which starts a cue', () => {
      expect(cueRows('WEBVTT\n\nNOTE a\nb\n00:00:01.000 --> 00:00:02.000\ntext\n')).toEqual([['', 1, 2, 'text']]);
    });
  });

  describe('STYLE and REGION blocks', () => {
    it('reads past them silently before the first cue', () => {
      const text = 'WEBVTT\n\nSTYLE\n::cue { color: red }\n\nREGION\nid:fred width:40%\n\nSTYLE   \n::cue(b) {}\n\n00:00:01.000 --> 00:00:02.000\nhi\n';
      expect(cueRows(text)).toEqual([['', 1, 2, 'hi']]);
      expect(warningsOf(text)).toEqual([]);
    });

    it('ignores them after the first cue, with a warning', () => {
      const text = 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nhi\n\nSTYLE\n::cue { color: red }\n\nREGION\nid:r\n\n00:00:03.000 --> 00:00:04.000\nthere\n';
      expect(cueRows(text)).toEqual([
        ['', 1, 2, 'hi'],
        ['', 3, 4, 'there'],
      ]);
      expect(warningsOf(text)).toEqual([
        { line: 6, message: 'line 6: a STYLE block after the first cue is ignored' },
        { line: 9, message: 'line 9: a REGION block after the first cue is ignored' },
      ]);
    });

    it('counts a cue seen once its timing has been read, even if the file has no cue left after it', () => {
      // the first cue is the one before the STYLE block, even though it is later in time
      const text = 'WEBVTT\n\n00:00:09.000 --> 00:00:10.000\nlate\n\nSTYLE\n::cue {}\n\n00:00:01.000 --> 00:00:02.000\nearly\n';
      expect(messages(text)).toEqual(['line 6: a STYLE block after the first cue is ignored']);
      expect(cueRows(text).map((c) => c[3])).toEqual(['early', 'late']);
    });

    it('ends a STYLE block at a line with "-->", which starts a cue', () => {
      expect(cueRows('WEBVTT\n\nSTYLE\n::cue {}\n00:00:01.000 --> 00:00:02.000\ntext\n')).toEqual([['', 1, 2, 'text']]);
    });

    it('takes STYLE followed by a timing line as a cue identifier', () => {
      expect(cueRows('WEBVTT\n\nSTYLE\n00:00:01.000 --> 00:00:02.000\ntext\n')).toEqual([['STYLE', 1, 2, 'text']]);
    });
  });

  describe('cue identifiers', () => {
    it.each([
      ['->', '->'],
      ['- ->', '- ->'],
      ['-- >', '-- >'],
      ['->>', '->>'],
      ['a leading space', ' leading space'],
      ['a trailing space', 'trailing space '],
      ['white space only', ' '],
      ['non-ASCII text', '❤ cue ünïcode'],
      ['a number (as SRT has)', '17'],
    ])('keeps an identifier with %s as it is', (_, id) => {
      expect(parseVtt(`WEBVTT\n\n${id}\n00:00:01.000 --> 00:00:02.000\ntext\n`)).toEqual([{ id, start: 1, end: 2, text: 'text' }]);
    });

    it('takes a line with "-->" as a timing line, never as an identifier', () => {
      const text = 'WEBVTT\n\nfoo-->\n00:00:01.000 --> 00:00:02.000\ntext\n';
      expect(cueRows(text)).toEqual([['', 1, 2, 'text']]);
      expect(messages(text)).toEqual(["cue at line 3 skipped: timestamp 'foo' is not valid (it must start with a digit)"]);
    });
  });

  describe('timestamps', () => {
    it.each([
      ['minutes and seconds', '01:02.500', 62.5],
      ['hours', '01:02:03.004', 3723.004],
      ['hours of three digits', '100:00:00.000', 360000],
      ['hours over 59', '60:00:00.000', 216000],
      ['hours of one digit (the parser reads them; the syntax wants two)', '1:02:03.000', 3723],
      ['the largest minutes and seconds', '59:59.999', 3599.999],
    ])('reads %s', (_, timestamp, seconds) => {
      expect(parseVtt(`WEBVTT\n\n${timestamp} --> 999:00:00.000\nx\n`)[0]!.start).toBe(seconds);
    });

    it.each([
      ['0000:00.000', "'0000' can only be hours, so ':mm:ss' must follow it"],
      ['1:00.000', "'1' can only be hours, so ':mm:ss' must follow it"],
      ['60:00.000', "'60' can only be hours, so ':mm:ss' must follow it"],
      ['00:00:00..000', 'the milliseconds need exactly three digits'],
      ['00:00.00', 'the milliseconds need exactly three digits'],
      ['00:00.0000', 'the milliseconds need exactly three digits'],
      ['00:00:00.00', 'the milliseconds need exactly three digits'],
      ['00:60.000', 'minutes and seconds go up to 59'],
      ['00:00:60.000', 'minutes and seconds go up to 59'],
      ['00:60:00.000', 'minutes and seconds go up to 59'],
      ['00:00:00,000', "the milliseconds follow a '.', not a ','"],
      ['00:00', "the seconds must be followed by '.' and three digits"],
      ['00:0:00.000', 'minutes and seconds have two digits each'],
      ['00:00:0.000', 'minutes and seconds have two digits each'],
      ['00.000', 'minutes and seconds are written mm:ss'],
      ['-00:00.000', 'it must start with a digit'],
      ['x00:00.000', 'it must start with a digit'],
    ])('skips a cue starting at %s', (timestamp, reason) => {
      const text = `WEBVTT\n\n${timestamp} --> 00:00:01.000\nx\n\n00:00:02.000 --> 00:00:03.000\nok\n`;
      expect(cueRows(text)).toEqual([['', 2, 3, 'ok']]);
      expect(warningsOf(text)).toEqual([{ line: 3, message: `cue at line 3 skipped: timestamp '${timestamp}' is not valid (${reason})` }]);
    });

    it('skips a cue whose end timestamp is not valid', () => {
      const text = 'WEBVTT\n\n00:00:00.000 --> 00:00:01,000\nx\n\n00:00:02.000 --> 00:00:03.000\nok\n';
      expect(messages(text)).toEqual(["cue at line 3 skipped: timestamp '00:00:01,000' is not valid (the milliseconds follow a '.', not a ',')"]);
    });

    it('needs "-->" right after the start time, and an end time after it', () => {
      const text = [
        'WEBVTT',
        '',
        '00:00:00.000 x --> 00:00:01.000',
        'a',
        '',
        '00:00:00.000 - -> --> 00:00:01.000',
        'b',
        '',
        '00:00:00.000 -->',
        'c',
        '',
        '00:00:00.000 -->   ',
        'd',
        '',
        '00:00:02.000 --> 00:00:03.000',
        'ok',
      ].join('\n');
      expect(cueRows(text)).toEqual([['', 2, 3, 'ok']]);
      expect(messages(text)).toEqual([
        "cue at line 3 skipped: '-->' must follow the start time, not 'x'",
        "cue at line 6 skipped: '-->' must follow the start time, not '-'",
        "cue at line 9 skipped: there is no end time after '-->'",
        "cue at line 12 skipped: there is no end time after '-->'",
      ]);
    });

    it('reads timings with any ASCII white space around the arrow, or none', () => {
      for (const line of ['00:01.000-->00:02.000', '  00:01.000\t-->\t00:02.000  ', '\f00:01.000 \f-->\f 00:02.000']) {
        expect(cueRows(`WEBVTT\n\n${line}\nx\n`)).toEqual([['', 1, 2, 'x']]);
      }
    });

    it('does not take a no-break space for white space in timings', () => {
      expect(messages('WEBVTT\n\n00:01.000\u00a0--> 00:02.000\nx\n\n00:03.000 --> 00:04.000\ny\n')).toEqual([
        "cue at line 3 skipped: '-->' must follow the start time, not '\u00a0'",
      ]);
    });
  });

  it('skips a lone "-->" line', () => {
    const text = 'WEBVTT\n\n-->\n\n00:00:01.000 --> 00:00:02.000\nhi\n';
    expect(cueRows(text)).toEqual([['', 1, 2, 'hi']]);
    expect(warningsOf(text)).toEqual([{ line: 3, message: "cue at line 3 skipped: there is no start time before '-->'" }]);
  });

  it('keeps zero-length cues as they are, and cues ending before they start with their start as their end', () => {
    const text = 'WEBVTT\n\n00:00:01.000 --> 00:00:01.000\nzero\n\n00:00:03.000 --> 00:00:02.000\nback\n';
    expect(cueRows(text)).toEqual([
      ['', 1, 1, 'zero'],
      ['', 3, 3, 'back'],
    ]);
    expect(warningsOf(text)).toEqual([{ line: 6, message: 'cue at line 6 ends (00:00:02.000) before it starts (00:00:03.000): kept with its start as its end' }]);
  });

  it('reads past the cue settings after the end time, whatever they are', () => {
    const text = [
      'WEBVTT',
      '',
      '00:00:01.000 --> 00:00:02.000 align:start position:10% line:0 size:50% vertical:rl region:r',
      'a',
      '',
      '00:00:02.000 --> 00:00:03.000 line:garbage foo:bar ::: -->',
      'b',
      '',
      '00:00:03.000 --> 00:00:04.000garbage',
      'c',
    ].join('\n');
    expect(cueRows(text)).toEqual([
      ['', 1, 2, 'a'],
      ['', 2, 3, 'b'],
      ['', 3, 4, 'c'],
    ]);
    expect(warningsOf(text)).toEqual([]);
  });

  describe('cue text', () => {
    it('ends at a blank line: text after it is not in the cue, and is skipped with a warning', () => {
      const text = 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nfirst line\n\nsecond line\nthird line\n';
      expect(cueRows(text)).toEqual([['', 1, 2, 'first line']]);
      expect(warningsOf(text)).toEqual([{ line: 6, message: "text at line 6 skipped (2 lines): it is not in a cue (a blank line ends a cue's text): 'second line'" }]);
    });

    it('ends at a line with "-->", which starts the next cue', () => {
      expect(cueRows('WEBVTT\n\n00:00:01.000 --> 00:00:02.000\none\n00:00:02.000 --> 00:00:03.000\ntwo\n')).toEqual([
        ['', 1, 2, 'one'],
        ['', 2, 3, 'two'],
      ]);
    });

    it('is empty for a timing line at the end of the file or before a blank line', () => {
      expect(cueRows('WEBVTT\n\n00:00:01.000 --> 00:00:02.000')).toEqual([['', 1, 2, '']]);
      expect(cueRows('WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n\n')).toEqual([['', 1, 2, '']]);
    });

    it('ends at a second timing line right after the first (no text), which is its own cue', () => {
      expect(cueRows('WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n00:00:03.000 --> 00:00:04.000\ntext\n')).toEqual([
        ['', 1, 2, ''],
        ['', 3, 4, 'text'],
      ]);
    });
  });

  it('does not make a cue of a block whose timing line comes after its text', () => {
    const text = 'WEBVTT\n\nsome text\nmore text\n00:00:01.000 --> 00:00:02.000\ncue text\n';
    expect(cueRows(text)).toEqual([['', 1, 2, 'cue text']]);
    expect(warningsOf(text)).toEqual([{ line: 3, message: "text at line 3 skipped (2 lines): it is not in a cue (a blank line ends a cue's text): 'some text'" }]);
  });

  it('gives warnings in file order, with 1-based lines counted after a BOM and through CRLF', () => {
    const text = '\ufeffWEBVTT\r\n\r\n0:00.000 --> 00:01.000\r\na\r\n\r\n00:00:02.000 --> 00:00:01.000\r\nb\r\n\r\nstray\r\n\r\n00:00:05.000 --> 00:00:06.000\r\nc\r\n\r\nSTYLE\r\n::cue {}\r\n';
    expect(warningsOf(text).map((w) => w.line)).toEqual([3, 6, 9, 14]);
  });

  it('lists at most 100 warnings, then one that counts the rest', () => {
    const bad = Array.from({ length: 250 }, (_, i) => `00:${String(i % 60).padStart(2, '0')}.0 --> x\nbad ${i}\n`).join('\n');
    const doc = parseVttDocument(`WEBVTT\n\n${bad}\n00:00:01.000 --> 00:00:02.000\ngood\n`);
    expect(doc.cues).toHaveLength(1);
    expect(doc.warnings).toHaveLength(MAX_TRANSCRIPT_WARNINGS + 1);
    expect(doc.warnings[0]!.line).toBe(3);
    expect(doc.warnings[99]!.line).toBe(3 + 99 * 3);
    expect(doc.warnings[100]).toEqual({ line: null, message: '… and 150 more warnings' });
  });

  it('refuses a file whose only cues are skipped, with the first problem and its line', () => {
    const text = 'WEBVTT\n\n1\n0000:00.000 --> 00:00:01.000\na\n\n2\n00:00:01,000 --> 00:00:02,000\nb\n\nstray text\n';
    const error = buildError(() => parseVttDocument(text));
    expect(error.code).toBe('VTT_INVALID');
    expect(error.line).toBe(4);
    expect(error.message).toBe(
      "The subtitle file has no usable cue: cue at line 4 skipped: timestamp '0000:00.000' is not valid ('0000' can only be hours, so ':mm:ss' must follow it) (and 2 more skipped).",
    );
  });

  it('returns no cues and no warnings for a file with only a header, comments and styles', () => {
    expect(parseVttDocument('WEBVTT\nKind: captions\n\nNOTE hi\n\nSTYLE\n::cue {}\n')).toEqual({ headers: { Kind: 'captions' }, cues: [], warnings: [] });
  });
});

describe('web-platform-tests WebVTT file-parsing cases (reproduced)', () => {
  it('arrows: a line with "-->" that is not a timing line does not take the next cue with it', () => {
    const text = [
      'WEBVTT',
      '',
      '-->',
      '00:00:00.000 --> 00:00:01.000',
      'text0',
      '',
      'foo-->',
      '00:00:00.000 --> 00:00:01.000',
      'text1',
      '',
      '-->foo',
      '00:00:00.000 --> 00:00:01.000',
      'text2',
      '',
      '--->',
      '00:00:00.000 --> 00:00:01.000',
      'text3',
      '',
      '-->-->',
      '00:00:00.000 --> 00:00:01.000',
      'text4',
      '',
      '00:00:00.000 --> 00:00:01.000',
      'text5',
      '',
      '00:00:00.000 -a -->',
      '00:00:00.000 --> 00:00:01.000',
      'text6',
      '',
      '00:00:00.000 --a -->',
      '00:00:00.000 --> 00:00:01.000',
      'text7',
      '',
      '00:00:00.000 -->',
      '00:00:00.000 --> 00:00:01.000',
      'text8',
    ].join('\n');
    expect(cueRows(text)).toEqual(Array.from({ length: 9 }, (_, i) => ['', 0, 1, `text${i}`]));
    expect(warningsOf(text).map((w) => w.line)).toEqual([3, 7, 11, 15, 19, 26, 30, 34]);
  });

  it('ids: identifiers are kept as written', () => {
    const text = 'WEBVTT\n\n leading space\n00:00:00.000 --> 00:00:01.000\ntext0\n\ntrailing space \n00:00:00.000 --> 00:00:01.000\ntext1\n\n-- >\n00:00:00.000 --> 00:00:01.000\ntext2\n\n->\n00:00:00.000 --> 00:00:01.000\ntext3\n\n \n00:00:00.000 --> 00:00:01.000\ntext4\n';
    expect(parseVtt(text).map((c) => c.id)).toEqual([' leading space', 'trailing space ', '-- >', '->', ' ']);
  });

  it('newlines: CRLF, CR and LF in one file', () => {
    const text = 'WEBVTT\r\n\r\n00:00:00.000 --> 00:00:01.000\r\ntext0\r\rfoo\r00:00:00.000 --> 00:00:01.000\rtext1\n\n00:00:00.000 --> 00:00:01.000\ntext2\r\ntext3\n';
    expect(cueRows(text)).toEqual([
      ['', 0, 1, 'text0'],
      ['foo', 0, 1, 'text1'],
      ['', 0, 1, 'text2\ntext3'],
    ]);
  });

  it('nulls: NULL in identifiers and text', () => {
    const text = 'WEBVTT\n\n\u0000\n00:00:00.000 --> 00:00:01.000\n\u0000\n';
    expect(parseVtt(text)).toEqual([{ id: '\ufffd', start: 0, end: 1, text: '\ufffd' }]);
  });

  it('header-garbage, header-space, header-tab, header-timings', () => {
    expect(cueRows('WEBVTT FOO\nBAR\n\n00:00:00.000 --> 00:00:01.000\ntext\n')).toEqual([['', 0, 1, 'text']]);
    expect(cueRows('WEBVTT \n\n00:00:00.000 --> 00:00:01.000\ntext\n')).toEqual([['', 0, 1, 'text']]);
    expect(cueRows('WEBVTT\t\n\n00:00:00.000 --> 00:00:01.000\ntext\n')).toEqual([['', 0, 1, 'text']]);
    expect(cueRows('WEBVTT\n00:00:00.000 --> 00:00:01.000\ntext\n')).toEqual([['', 0, 1, 'text']]);
  });

  it('signature-no-newline and BOM', () => {
    expect(parseVtt('WEBVTT')).toEqual([]);
    expect(cueRows('\ufeffWEBVTT\n\n00:00:00.000 --> 00:00:01.000\ntext\n')).toEqual([['', 0, 1, 'text']]);
  });

  it('comments: NOTE blocks, and text that only looks like one', () => {
    const text = [
      'WEBVTT',
      '',
      'NOTE',
      '',
      'NOTE text',
      'NOTE text',
      '00:00:00.000 --> 00:00:01.000',
      'text0',
      '',
      'NOTE 00:00:00.000 --> 00:00:01.000',
      'text1',
      '',
      'NOTE',
      '00:00:00.000 --> 00:00:01.000',
      'text2',
    ].join('\n');
    expect(cueRows(text)).toEqual([
      ['', 0, 1, 'text0'],
      ['NOTE', 0, 1, 'text2'],
    ]);
    expect(warningsOf(text).map((w) => w.line)).toEqual([10]);
  });

  it('timings-60, timings-too-short and timings-too-long', () => {
    const times = ['00:60.000', '60:00.000', '00:00:60.000', '00:60:00.000', '00:00.00', '00:00:00.00', '0:00.000', '00:00.0000', '000:00:00.000', '60:00:00.000'];
    const text = `WEBVTT\n\n${times.map((t, i) => `${t} --> 999:00:00.000\ntext${i}\n`).join('\n')}`;
    expect(parseVtt(text).map((c) => [c.text, c.start])).toEqual([
      ['text8', 0],
      ['text9', 216000],
    ]);
  });

  it('timings-eof: a timing line ends the file', () => {
    expect(cueRows('WEBVTT\n\n00:00:00.000 --> 00:00:01.000')).toEqual([['', 0, 1, '']]);
    expect(buildError(() => parseVtt('WEBVTT\n\n00:00:00.000 -->')).message).toContain("there is no end time after '-->'");
  });

  it('timings-garbage: what is after the end time is settings, what is before it must be a timing', () => {
    const text = [
      'WEBVTT',
      '',
      'x00:00:00.000 --> 00:00:01.000',
      'invalid',
      '',
      '00:00:00.000x --> 00:00:01.000',
      'invalid',
      '',
      '00:00:00.000 -->x00:00:01.000',
      'invalid',
      '',
      '00:00:00.000 --> 00:00:01.000x',
      'valid',
    ].join('\n');
    expect(cueRows(text)).toEqual([['', 0, 1, 'valid']]);
    expect(warningsOf(text).map((w) => w.line)).toEqual([3, 6, 9]);
  });

  it('stylesheets and regions: only before the first cue', () => {
    const text = 'WEBVTT\n\nSTYLE\n::cue {}\n\nREGION\nid:r\n\n00:00:00.000 --> 00:00:01.000\ntext\n\nSTYLE\n::cue {}\n';
    expect(cueRows(text)).toEqual([['', 0, 1, 'text']]);
    expect(messages(text)).toEqual(['line 12: a STYLE block after the first cue is ignored']);
  });
});

describe('cue text', () => {
  const textOf = (cueText: string) => parseVtt(`WEBVTT\n\n00:00:01.000 --> 00:00:05.000\n${cueText}\n`)[0]!;

  it('removes the tags c, i, b, u, lang, ruby and v with their classes and annotations; ignores unknown tags', () => {
    expect(textOf('<c.yellow.bg_blue>a</c> <i>b</i> <b>c</b> <u>d</u> <lang en-GB>e</lang> <v.loud Bob>f</v> <foo bar>g</foo> <>h</> <.x>i').text).toBe('a b c d e f g h i');
  });

  it('drops ruby annotations (<rt>), with what is inside them; </ruby> also closes an open <rt>', () => {
    expect(textOf('<ruby>漢<rt>kan<00:00:02.000>ji</ruby>字 <rt>not ruby</rt>').text).toBe('漢字 not ruby');
    expect(textOf('<ruby>漢<rt>kan</rt>').text).toBe('漢');
  });

  it('takes the voice from the first <v> with a name, white space collapsed and references decoded', () => {
    const cue = textOf('<v>nobody</v> <v.a  Tom\t&amp;\fJerry >said</v> <v Other>hi</v>');
    expect(cue.voice).toBe('Tom & Jerry');
    expect(cue.text).toBe('nobody said hi');
  });

  it('decodes character references: named with and without ";", decimal, hex, and leaves the rest as written', () => {
    expect(textOf('&amp; &amp &lt;&gt; &ampx &quot;&apos; &#65;&#x42;&#X43; &#67 a&#x1F600;b').text).toBe('& & <> &x "\' ABC C a😀b');
    expect(textOf('R&D &unknown; & &; &# &#x; AT&T').text).toBe('R&D &unknown; & &; &# &#x; AT&T');
    expect(textOf('&#0; &#x110000; &#xD800; &#150; &#99999999999999999999;').text).toBe('\ufffd \ufffd \ufffd – \ufffd');
  });

  it('starts a timed segment at each valid inline timestamp and ignores invalid ones', () => {
    const cue = textOf('a <00:00:02.000>b <00:03.000>c <00:00:04>d <00:00:04.000x>e <1:00.000>f');
    expect(cue.words).toEqual([
      { text: 'a', start: 1 },
      { text: 'b', start: 2 },
      { text: 'c', start: 3 },
      { text: 'd', start: 3 },
      { text: 'e', start: 3 },
      { text: 'f', start: 3 },
    ]);
  });

  it('reads tags cut by the end of the text', () => {
    expect(textOf('a <b').text).toBe('a');
    expect(textOf('a </b').text).toBe('a');
    expect(textOf('a <v Bob').voice).toBe('Bob');
    expect(textOf('a <00:00:02.000').words).toEqual([{ text: 'a', start: 1 }]);
    expect(textOf('a <').text).toBe('a');
  });

  it('reads 50,000 nested tags without recursion', () => {
    const cue = textOf(`${'<b>'.repeat(50_000)}deep${'</b>'.repeat(50_000)} ${'<ruby><rt>'.repeat(50_000)}gone`);
    expect(cue.text).toBe('deep');
  });
});

describe('pathological input stays linear', () => {
  const within = (ms: number, fn: () => unknown) => {
    // CPU time of this process, so a neighbour's load does not count; a generous bound: the figures
    // are in the benchmark, this catches quadratic behaviour
    const cpu = process.cpuUsage();
    fn();
    const { user, system } = process.cpuUsage(cpu);
    expect((user + system) / 1000).toBeLessThan(ms);
  };

  it('a 1 MB line of cue text, of a timing line and of references', () => {
    within(3000, () => expect(parseVtt(`WEBVTT\n\n00:00:00.000 --> 00:00:01.000\n${'word '.repeat(200_000)}\n`)[0]!.text.length).toBe(999_999));
    within(3000, () => expect(parseVtt(`WEBVTT\n\n00:00:00.000 --> 00:00:01.000 ${'x'.repeat(1 << 20)}\nx\n`)).toHaveLength(1));
    within(3000, () => expect(parseVtt(`WEBVTT\n\n00:00:00.000 --> 00:00:01.000\n${'&amp'.repeat(1 << 18)}<${'<b'.repeat(1 << 18)}\n`)).toHaveLength(1));
    within(3000, () => expect(() => parseVtt(`WEBVTT\n\n${'1'.repeat(1 << 20)}:00.000 --> 00:00:01.000\nx\n`)).toThrow(TranscriptBuildError));
  });

  it('100,000 cues', () => {
    const ts = (s: number) => `${String(Math.floor(s / 3600)).padStart(2, '0')}:${String(Math.floor(s / 60) % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}.000`;
    const text = `WEBVTT\n\n${Array.from({ length: 100_000 }, (_, i) => `${ts(i)} --> ${ts(i + 1)}\nword ${i}\n`).join('\n')}`;
    within(3000, () => expect(parseVtt(text)).toHaveLength(100_000));
  });

  it('100,000 bad cues keep 101 warnings', () => {
    const text = `WEBVTT\n\n${'00:00.00 --> x\ny\n\n'.repeat(100_000)}00:00.000 --> 00:01.000\nok\n`;
    within(3000, () => expect(parseVttDocument(text).warnings).toHaveLength(101));
  });
});
