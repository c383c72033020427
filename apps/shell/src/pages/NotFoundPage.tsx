import { Link } from 'react-router-dom';

/** Any path the router does not know. */
export function NotFoundPage() {
  return (
    <main className="wc-screen" id="main">
      <div className="wc-screen__card" data-testid="not-found">
        <h1>404 Page Not Found</h1>
        <p>Did you forget to add the page to the router?</p>
        <div className="wc-actions">
          <Link className="wc-button wc-button--primary" to="/">
            Go to the editor
          </Link>
        </div>
      </div>
    </main>
  );
}
