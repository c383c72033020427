import { Consumers, consumersOf, withDelivery } from './consumers';
import { Streams } from './events';
import { ExportStream } from './publishing';

const STREAMS = [...Object.values(Streams), ExportStream];

describe('the consumer table', () => {
  it('names each durable once, on a stream that carries its filter', () => {
    const all = Object.values(Consumers);
    expect(new Set(all.map((c) => `${c.stream}/${c.durable}`)).size).toBe(all.length);
    for (const c of all) {
      const stream = STREAMS.find((s) => s.name === c.stream);
      expect({ durable: c.durable, stream: stream?.name }).toEqual({ durable: c.durable, stream: c.stream });
      const covered = stream!.subjects.some((s) => s.endsWith('>') && c.filterSubject.startsWith(s.slice(0, -1)));
      expect({ durable: c.durable, filter: c.filterSubject, covered }).toEqual({ durable: c.durable, filter: c.filterSubject, covered: true });
      // a service's durables carry its name
      expect(c.durable.startsWith(`${c.service}-`)).toBe(true);
    }
  });

  it('gives each service its own, and delivery settings from configuration', () => {
    expect(consumersOf('media').map((c) => c.durable).sort()).toEqual(['media-ingest', 'media-keymoments', 'media-probe', 'media-render']);
    expect(withDelivery(Consumers.mediaRender, { ackWaitMs: 4000, maxDeliver: 2 })).toMatchObject({ durable: 'media-render', ackWaitMs: 4000, maxDeliver: 2 });
    expect(withDelivery(Consumers.exportRun, {})).toEqual(Consumers.exportRun);
  });
});
