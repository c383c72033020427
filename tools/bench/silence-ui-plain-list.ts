/**
 * Section 14's alternative: the silence panel's list without virtualisation. Same props, scroll
 * box and row component as SilenceList; every row is in the document, one after another.
 */
import { createElement as h } from 'react';
import type { SilenceRecommendation, SilenceSegment } from '@wordcut/contracts';
import { SilenceRow } from '../../apps/editor/src/silence/SilenceList';

const noMeasure = (): void => undefined;

export function SilenceList({ silences, decisionOf, selectedId, onToggle, onPreview }: {
  silences: readonly SilenceSegment[];
  decisionOf: (silence: SilenceSegment) => SilenceRecommendation;
  selectedId: string | null;
  onToggle: (id: string) => void;
  onPreview: (id: string) => void;
}) {
  if (silences.length === 0) return h('p', { className: 'wc-muted', 'data-testid': 'silence-empty' }, 'No pauses at or above this minimum length.');
  return h(
    'div',
    { className: 'wc-silence-list wc-silence-list--plain', 'data-testid': 'silence-list', tabIndex: 0, role: 'region', 'aria-label': 'Pauses found' },
    h(
      'ul',
      { className: 'wc-silence-list__inner' },
      silences.map((silence, index) =>
        h(SilenceRow, {
          key: silence.id,
          index,
          total: silences.length,
          silence,
          decision: decisionOf(silence),
          selected: silence.id === selectedId,
          onToggle,
          onPreview,
          measure: noMeasure,
          top: 0,
        }),
      ),
    ),
  );
}
