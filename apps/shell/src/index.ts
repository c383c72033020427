// Async boundary: the shared singletons (react, router, query, @wordcut/ui) are negotiated by
// the Module Federation runtime before any of them is evaluated, so none has to be eager.
import './styles.css';

void import('./bootstrap');
