import { formatTickTime, rulerTicks } from '@wordcut/editor-core';
import { placeTickLabels } from './tickLabels';

/** 6 px a character, as the ruler's 10 px font roughly measures. */
const measure = (text: string) => text.length * 6;

function ticksAcross(start: number, end: number, width: number) {
  return rulerTicks(start, end).map((tick) => ({ x: tick.fraction * (width - 1), text: formatTickTime(tick.time, end - start) }));
}

function expectNoOverlap(labels: ReturnType<typeof placeTickLabels>, width: number) {
  labels.forEach((label, i) => {
    expect(label.left).toBeGreaterThanOrEqual(0);
    expect(label.right).toBeLessThanOrEqual(width);
    if (i > 0) expect(label.left - labels[i - 1]!.right).toBeGreaterThanOrEqual(6);
  });
}

describe('placeTickLabels', () => {
  it('labels all 11 ticks when they have room', () => {
    const labels = placeTickLabels(ticksAcross(0, 30, 1200), 1200, measure);
    expect(labels.map((l) => l.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(labels[0]!.align).toBe('left');
    expect(labels[10]!.align).toBe('right');
    expectNoOverlap(labels, 1200);
  });

  it('thins the labels of a zoomed ruler (tenths) on a narrow timeline so none touch', () => {
    const width = 420;
    const labels = placeTickLabels(ticksAcross(0.4, 4.4, width), width, measure);
    expect(labels.length).toBeLessThan(11);
    expect(labels[0]!.index).toBe(0);
    expect(labels[labels.length - 1]!.index).toBe(10);
    expectNoOverlap(labels, width);
  });

  it('uses the smallest even stride that fits', () => {
    const ticks = Array.from({ length: 11 }, (_, i) => ({ x: i * 40, text: '0:00.0' }));
    // 36 px labels 40 px apart touch; every 2nd tick leaves 80 px
    expect(placeTickLabels(ticks, 400, measure).map((l) => l.index)).toEqual([0, 2, 4, 6, 8, 10]);
  });

  it('keeps the first label alone when even two do not fit', () => {
    const ticks = Array.from({ length: 11 }, (_, i) => ({ x: i * 5, text: '0:00:00.0' }));
    expect(placeTickLabels(ticks, 50, measure).map((l) => l.index)).toEqual([0]);
    expect(placeTickLabels([], 50, measure)).toEqual([]);
  });
});
