import { Route, Routes, useLocation } from 'react-router-dom';
import { ANALYTICS_ROUTE, EDITOR_ROUTES } from '@wordcut/contracts';
import { ErrorBoundary } from './ErrorBoundary';
import { EditorPage } from './pages/EditorPage';
import { AnalyticsPage } from './pages/AnalyticsPage';
import { NotFoundPage } from './pages/NotFoundPage';
import { SessionRefresher } from './SessionRefresher';

/** The browser routes; every editor route shows the same editor page. */
export function App() {
  const location = useLocation();
  return (
    <>
      <a className="wc-skip-link" href="#main">
        Skip to content
      </a>
      <ErrorBoundary resetKey={location.pathname}>
        <Routes>
          {EDITOR_ROUTES.map((path) => (
            <Route key={path} path={path} element={<EditorPage />} />
          ))}
          <Route path={ANALYTICS_ROUTE} element={<AnalyticsPage />} />
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </ErrorBoundary>
      <SessionRefresher />
    </>
  );
}
