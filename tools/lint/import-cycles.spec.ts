import { importCycles, importGraph } from './import-graph';

describe('import cycles', () => {
  it('finds a cycle where there is one (the checker works)', () => {
    const g = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
      ['e', ['e']],
    ]);
    expect(importCycles(g)).toEqual([['a', 'b', 'c'], ['e']]);
  });

  it('our TypeScript has none (type-only imports included)', () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(500);
    expect(graph.get('services/gateway/src/videos/video-store.ts')).toEqual(expect.arrayContaining(['libs/contracts/src/index.ts']));
    expect(importCycles(graph)).toEqual([]);
  });
});
