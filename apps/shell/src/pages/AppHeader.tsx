import { Link } from 'react-router-dom';
import type { ReactNode } from 'react';

/** The top bar: logo, a title area and an actions slot. */
export function AppHeader({ title, actions }: { title?: ReactNode; actions?: ReactNode }) {
  return (
    <header className="wc-header">
      <Link to="/" className="wc-logo" aria-label="WordCut, home">
        <span className="wc-logo__mark" aria-hidden="true">
          W
        </span>
        WordCut
      </Link>
      <div className="wc-header__title">{title}</div>
      <div className="wc-header__actions">{actions}</div>
    </header>
  );
}
