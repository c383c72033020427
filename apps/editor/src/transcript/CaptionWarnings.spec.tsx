/** @jest-environment jsdom */
import '@wordcut/ui/src/testing/jsdom-polyfills';
import '@testing-library/jest-dom';
import { fireEvent, render, screen } from '@testing-library/react';
import { CaptionWarnings } from './CaptionWarnings';
import { CAPTION_WARNINGS_SEEN_KEY, captionWarningSummary, captionWarningText, captionWarningsSeen, markCaptionWarningsSeen } from './captionWarnings';

const warnings = [
  { line: 41, message: "cue at line 41 skipped: timestamp '00:00:00..000' is not valid" },
  { line: 88, message: 'cue at line 88 ends (00:00:05.000) before it starts (00:00:06.000): kept with its start as its end' },
];

beforeEach(() => localStorage.clear());

describe('caption warning texts', () => {
  it('counts the lines, including those a "… and N more" line stands for', () => {
    expect(captionWarningSummary(warnings.slice(0, 1))).toBe('1 caption line was skipped or repaired');
    expect(captionWarningSummary(warnings)).toBe('2 caption lines were skipped or repaired');
    expect(captionWarningSummary([...warnings, { line: null, message: '… and 12 more warnings' }])).toBe('14 caption lines were skipped or repaired');
  });

  it('names the line of each once, and leaves JSON entries (no line) without one', () => {
    expect(captionWarningText(warnings[0]!)).toBe("Cue at line 41 skipped: timestamp '00:00:00..000' is not valid");
    expect(captionWarningText({ line: 12, message: 'a STYLE block after the first cue is ignored' })).toBe('Line 12: a STYLE block after the first cue is ignored');
    expect(captionWarningText({ line: null, message: "word 17 ('oops') skipped" })).toBe("Word 17 ('oops') skipped");
  });

  it('remembers dismissed transcripts, and survives a broken stored value', () => {
    expect(captionWarningsSeen(localStorage, 't1')).toBe(false);
    markCaptionWarningsSeen(localStorage, 't1');
    markCaptionWarningsSeen(localStorage, 't1');
    expect(captionWarningsSeen(localStorage, 't1')).toBe(true);
    expect(JSON.parse(localStorage.getItem(CAPTION_WARNINGS_SEEN_KEY)!)).toEqual(['t1']);
    localStorage.setItem(CAPTION_WARNINGS_SEEN_KEY, '{not json');
    expect(captionWarningsSeen(localStorage, 't1')).toBe(false);
    expect(captionWarningsSeen(null, 't1')).toBe(false);
  });
});

describe('CaptionWarnings', () => {
  it('shows the count, the details on request, and once dismissed stays gone for that transcript', () => {
    const { unmount } = render(<CaptionWarnings transcript={{ id: 't2', warnings }} />);
    expect(screen.getByTestId('caption-warnings')).toHaveTextContent('2 caption lines were skipped or repaired');
    const details = screen.getByRole('button', { name: 'Show details' });
    expect(details).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByText(/Cue at line 41/)).not.toBeVisible();
    fireEvent.click(details);
    expect(screen.getByRole('button', { name: 'Hide details' })).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByText(/Cue at line 41/)).toBeVisible();
    expect(screen.getByText(/Cue at line 88/)).toBeVisible();
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByTestId('caption-warnings')).toBeNull();
    unmount();
    render(<CaptionWarnings transcript={{ id: 't2', warnings }} />);
    expect(screen.queryByTestId('caption-warnings')).toBeNull();
  });

  it('shows nothing for a transcript without warnings', () => {
    render(<CaptionWarnings transcript={{ id: 't3', warnings: [] }} />);
    expect(screen.queryByTestId('caption-warnings')).toBeNull();
  });
});
