import { containedBox, cropBox } from './reframe';

describe('reframe geometry', () => {
  it('places a 16:9 picture in a square box with bars above and below', () => {
    expect(containedBox(400, 400, 1920, 1080)).toEqual({ x: 0, y: 87.5, width: 400, height: 225 });
  });

  it('places a 9:16 picture in a wide box with bars at the sides', () => {
    const box = containedBox(800, 450, 1080, 1920);
    expect(box.height).toBe(450);
    expect(box.width).toBeCloseTo(253.125);
    expect(box.x).toBeCloseTo((800 - 253.125) / 2);
  });

  it('keeps the middle column of a landscape picture for a story clip', () => {
    const crop = cropBox({ x: 0, y: 0, width: 1920, height: 1080 }, 1920, 1080, '9:16');
    expect(crop).toEqual({ x: (1920 - 607.5) / 2, y: 0, width: 607.5, height: 1080 });
  });

  it('keeps a band across a landscape picture for a cinematic clip, at the export size 2560x1080', () => {
    const crop = cropBox({ x: 10, y: 20, width: 960, height: 540 }, 1920, 1080, '21:9');
    expect(crop.width).toBe(960);
    expect(crop.height).toBeCloseTo(960 / (2560 / 1080));
    expect(crop.y).toBeCloseTo(20 + (540 - 960 / (2560 / 1080)) / 2);
  });

  it('keeps the whole picture for Original and a matching ratio', () => {
    expect(cropBox({ x: 0, y: 0, width: 1600, height: 900 }, 1280, 720, '16:9')).toEqual({ x: 0, y: 0, width: 1600, height: 900 });
    expect(cropBox({ x: 5, y: 0, width: 400, height: 300 }, 640, 480, 'Original')).toEqual({ x: 5, y: 0, width: 400, height: 300 });
  });

  it('frames the clip dialog\'s zoom and pan: the render\'s window, held on the frame', () => {
    // 9:16 of 1920x1080 at zoom 2: a 303.75 x 540 window, its centre moved right by 10 % of 1920
    const crop = cropBox({ x: 0, y: 0, width: 960, height: 540 }, 1920, 1080, '9:16', { offsetX: 10, offsetY: 0, scale: 2 });
    expect(crop.width).toBeCloseTo(303.75 / 2, 9);
    expect(crop.height).toBeCloseTo(270, 9);
    expect(crop.x + crop.width / 2).toBeCloseTo(480 + 96, 9);
    const far = cropBox({ x: 0, y: 0, width: 960, height: 540 }, 1920, 1080, '9:16', { offsetX: 90, offsetY: -90, scale: 2 });
    expect(far.x + far.width).toBeCloseTo(960, 9);
    expect(far.y).toBeCloseTo(0, 9);
  });
});
