/** A ruler label placed on the canvas: its text, anchor and horizontal extent in CSS pixels. */
export interface PlacedTickLabel {
  index: number;
  text: string;
  x: number;
  align: 'left' | 'center' | 'right';
  left: number;
  right: number;
}

/** Room kept between two ruler labels, in pixels. */
export const TICK_LABEL_GAP_PX = 6;
/** Label every tick, every 2nd, 5th or 10th: each keeps the 11 ticks' first and last labelled. */
const LABEL_STRIDES = [1, 2, 5, 10];

/**
 * Which ruler ticks carry a label: the smallest stride whose labels, measured by `measure`, do not
 * touch (the first label is left-aligned, the last right-aligned, the others centred on their tick,
 * all kept inside 0..width). Every tick keeps its mark; only labels are thinned. With no stride that
 * fits, the first label alone.
 */
export function placeTickLabels(ticks: ReadonlyArray<{ x: number; text: string }>, width: number, measure: (text: string) => number, gap = TICK_LABEL_GAP_PX): PlacedTickLabel[] {
  if (ticks.length === 0) return [];
  const last = ticks.length - 1;
  const place = (index: number): PlacedTickLabel => {
    const { x, text } = ticks[index]!;
    const w = measure(text);
    const align = index === 0 ? 'left' : index === last ? 'right' : 'center';
    let left = align === 'left' ? x : align === 'right' ? x - w : x - w / 2;
    left = Math.max(0, Math.min(left, width - w));
    return { index, text, x, align, left, right: left + w };
  };
  for (const stride of LABEL_STRIDES) {
    if (stride > last && last > 0) break;
    const labels: PlacedTickLabel[] = [];
    for (let i = 0; i <= last; i += stride) labels.push(place(i));
    if (labels.every((label, i) => i === 0 || label.left - labels[i - 1]!.right >= gap)) return labels;
  }
  return [place(0)];
}
