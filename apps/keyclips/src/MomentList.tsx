import type { KeyMoment } from '@wordcut/contracts';
import { MomentCard } from './MomentCard';

/** The moment cards, highest engagement first. */
export function MomentList({ moments, selectedId, onSelect }: { moments: readonly KeyMoment[]; selectedId: string; onSelect: (id: string) => void }) {
  return (
    <section className="wc-kc__list" aria-labelledby="wc-kc-moments-title">
      <h3 id="wc-kc-moments-title" className="wc-kc__section-title">
        {moments.length} key moments
      </h3>
      <ul className="wc-kc__cards" data-testid="keyclips-moments">
        {moments.map((moment) => (
          <MomentCard key={moment.id} moment={moment} selected={moment.id === selectedId} onSelect={() => onSelect(moment.id)} />
        ))}
      </ul>
    </section>
  );
}
