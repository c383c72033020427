/**
 * The analytics remote's rules, on top of the shell's stylesheet (its `--wc-*` variables and
 * `wc-button` / `wc-card` / `wc-field` classes). Shipped as a <style> React hoists into <head> once;
 * every class is prefixed `wc-an-`. Colours keep 4.5:1 contrast on their backgrounds.
 */
export const ANALYTICS_CSS = `
.wc-an { max-width: 1400px; margin: 0 auto; padding: 1.25rem 1.5rem 2rem; display: grid; grid-template-columns: minmax(0, 1fr); gap: 1.25rem; }
.wc-an-header { display: flex; align-items: flex-start; justify-content: space-between; gap: 1rem; }
.wc-an-header__title { margin: 0; font-size: 1.5rem; }
.wc-an-header__subtitle { margin: 0.15rem 0 0; }
.wc-an-section { display: grid; gap: 0.9rem; min-width: 0; }
.wc-an-section__head { display: flex; align-items: baseline; justify-content: space-between; gap: 1rem; }
.wc-an-section__title { margin: 0; font-size: 1.15rem; }
.wc-an-count { margin: 0; }
.wc-an-filters { display: grid; grid-template-columns: minmax(200px, 2fr) repeat(4, minmax(120px, 1fr)); gap: 0.75rem; align-items: end; }
@media (max-width: 1100px) { .wc-an-filters { grid-template-columns: repeat(4, minmax(0, 1fr)); } .wc-an-filters__search { grid-column: 1 / -1; } }
@media (max-width: 640px) { .wc-an-filters { grid-template-columns: repeat(2, minmax(0, 1fr)); } }
.wc-an-filters .wc-field label { font-size: 0.85rem; }
.wc-an-select { min-height: 38px; padding: 0 0.5rem; border: 1px solid var(--wc-control-border); border-radius: var(--wc-radius-small); background: var(--wc-surface); color: var(--wc-text); font: inherit; min-width: 0; width: 100%; }
.wc-an-bulkbar { display: flex; align-items: center; gap: 0.6rem; padding: 0.5rem 0.75rem; border-radius: var(--wc-radius-small); background: var(--wc-accent-soft); color: var(--wc-accent-strong); font-weight: 600; }
.wc-an-bulkbar span { margin-right: auto; }
.wc-an-table-wrap { overflow-x: auto; border: 1px solid var(--wc-border); border-radius: var(--wc-radius-small); }
.wc-an-table { width: 100%; border-collapse: collapse; font-size: 0.875rem; }
.wc-an-table th, .wc-an-table td { padding: 0.5rem 0.6rem; text-align: left; border-bottom: 1px solid var(--wc-border); vertical-align: middle; }
.wc-an-table thead th { background: var(--wc-surface-muted); font-weight: 600; font-size: 0.8rem; }
.wc-an-table tbody tr:last-child > * { border-bottom: 0; }
.wc-an-table tbody tr[aria-selected="true"] { background: var(--wc-accent-soft); }
.wc-an-table__check { width: 2.25rem; }
.wc-an-table__check input { width: 1rem; height: 1rem; accent-color: var(--wc-accent); }
.wc-an-table__name { font-weight: 500; min-width: 10rem; max-width: 280px; }
.wc-an-name { display: block; overflow-wrap: anywhere; }
.wc-an-subtle { display: block; font-weight: 400; font-size: 0.8rem; color: var(--wc-text-muted); }
.wc-an-table__user { max-width: 9rem; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; font-family: var(--wc-mono); font-size: 0.8rem; }
.wc-an-nowrap { white-space: nowrap; }
.wc-an-contents { list-style: none; margin: 0; padding: 0; font-size: 0.8rem; white-space: nowrap; }
.wc-an-num { font-variant-numeric: tabular-nums; white-space: nowrap; }
.wc-an-badge { display: inline-block; padding: 0.1rem 0.55rem; border-radius: 999px; font-size: 0.75rem; font-weight: 600; white-space: nowrap; }
.wc-an-badge--uploaded { background: #e7efff; color: #1d4ed8; }
.wc-an-badge--processing { background: #fff4d6; color: #6b4600; }
.wc-an-badge--completed { background: #e6f4ea; color: #1f6b30; }
.wc-an-badge--failed { background: var(--wc-danger-soft); color: #a61e1e; }
.wc-an-badge--ok { background: #e6f4ea; color: #1f6b30; }
.wc-an-badge--warn { background: #fff4d6; color: #6b4600; }
.wc-an-badge--bad { background: var(--wc-danger-soft); color: #a61e1e; }
.wc-an-badge--neutral { background: #ebebe6; color: #3f3f3b; }
.wc-an-badge--fatal { background: #7a1010; color: #fff; }
.wc-an-figure--ok { color: #1f6b30; }
.wc-an-figure--warn { color: #6b4600; }
.wc-an-figure--bad { color: #a61e1e; }
.wc-an-features { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 0.5rem 1.5rem; }
.wc-an-features li { display: flex; align-items: center; gap: 0.5rem; font-weight: 500; }
.wc-an-cards { display: grid; grid-template-columns: repeat(4, minmax(0, 1fr)); gap: 1rem; }
@media (max-width: 900px) { .wc-an-cards { grid-template-columns: repeat(2, minmax(0, 1fr)); } }
.wc-an-stat-card { display: grid; align-content: start; gap: 0.3rem; min-width: 0; }
.wc-an-stat-card__title { margin: 0; font-size: 0.85rem; font-weight: 600; color: var(--wc-text-muted); }
.wc-an-stat-card__value { margin: 0; font-size: 1.6rem; font-weight: 700; font-variant-numeric: tabular-nums; line-height: 1.2; }
.wc-an-stat-card__value .wc-an-badge { font-size: 0.9rem; }
.wc-an-stat-card__note { margin: 0; font-size: 0.8rem; color: var(--wc-text-muted); overflow-wrap: anywhere; }
.wc-an-pair { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 1.25rem; align-items: start; }
@media (max-width: 900px) { .wc-an-pair { grid-template-columns: minmax(0, 1fr); } }
.wc-an-block { display: grid; gap: 0.6rem; min-width: 0; align-content: start; }
.wc-an-subhead { margin: 0; font-size: 1rem; display: flex; flex-wrap: wrap; align-items: baseline; gap: 0.4rem; }
.wc-an-dl { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 0.35rem 1rem; margin: 0; font-size: 0.9rem; }
.wc-an-dl__row { display: contents; }
.wc-an-dl dt { color: var(--wc-text-muted); }
.wc-an-dl dd { margin: 0; min-width: 0; overflow-wrap: anywhere; }
.wc-an-dl--inline { display: flex; flex-wrap: wrap; gap: 0.4rem 1.5rem; }
.wc-an-dl--inline .wc-an-dl__row { display: flex; gap: 0.4rem; }
.wc-an-stats { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 0.75rem; margin: 0; }
.wc-an-stat { display: grid; align-content: start; gap: 0.1rem; padding: 0.6rem 0.75rem; border: 1px solid var(--wc-border); border-radius: var(--wc-radius-small); min-width: 0; }
.wc-an-stat__label { font-size: 0.8rem; font-weight: 600; color: var(--wc-text-muted); }
.wc-an-stat__value { margin: 0; font-size: 1.3rem; font-weight: 700; font-variant-numeric: tabular-nums; display: flex; flex-wrap: wrap; align-items: center; gap: 0.4rem; }
.wc-an-stat__note { margin: 0; font-size: 0.8rem; color: var(--wc-text-muted); }
.wc-an-hint { margin: 0; font-size: 0.85rem; color: var(--wc-text-muted); }
.wc-an-hint--strong { color: #a61e1e; font-weight: 600; }
.wc-an-code { font-family: var(--wc-mono); font-size: 0.8rem; overflow-wrap: anywhere; }
.wc-an-inline { display: inline; }
.wc-an-message { margin: 0; min-width: 12rem; max-width: 480px; overflow-wrap: anywhere; }
.wc-an-message summary { cursor: pointer; }
.wc-an-message__full { margin: 0.5rem 0 0; white-space: pre-wrap; font-family: var(--wc-mono); font-size: 0.8rem; }
.wc-an-feed { list-style: none; margin: 0; padding: 0; display: grid; gap: 0.5rem; }
.wc-an-feed > li { display: grid; gap: 0.2rem; padding: 0.5rem 0.75rem; border: 1px solid var(--wc-border); border-radius: var(--wc-radius-small); font-size: 0.875rem; }
.wc-an-feed--compact > li { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0.5rem; padding: 0.35rem 0.6rem; }
.wc-an-feed__head { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem; }
.wc-an-filters--compact { grid-template-columns: repeat(2, minmax(140px, 220px)); }
@media (max-width: 1100px) { .wc-an-filters--compact { grid-template-columns: repeat(2, minmax(0, 220px)); } }
.wc-an-table__endpoint { max-width: 16rem; }
.wc-an-row--expandable { cursor: pointer; }
.wc-an-row--expandable:hover { background: var(--wc-surface-muted); }
.wc-an-row--open > * { border-bottom: 0; }
.wc-an-disclosure { display: inline-flex; align-items: center; gap: 0.3rem; min-height: 28px; padding: 0.1rem 0.35rem 0.1rem 0.15rem; border: 1px solid transparent; border-radius: var(--wc-radius-small); background: none; color: var(--wc-text); font: inherit; cursor: pointer; }
.wc-an-disclosure:hover { border-color: var(--wc-control-border); }
.wc-an-chevron { display: inline-block; width: 1em; color: var(--wc-text-muted); }
.wc-an-details-row > td { background: var(--wc-surface-muted); }
.wc-an-details { display: grid; gap: 0.5rem; padding: 0.25rem 0.25rem 0.5rem; }
.wc-an-details__label { margin: 0; font-size: 0.85rem; color: var(--wc-text-muted); }
.wc-an-pre { margin: 0; max-height: 280px; overflow: auto; padding: 0.6rem 0.75rem; border: 1px solid var(--wc-border); border-radius: var(--wc-radius-small); background: var(--wc-surface); color: var(--wc-text); font-family: var(--wc-mono); font-size: 0.8rem; white-space: pre-wrap; overflow-wrap: anywhere; }
.wc-an-icon-button { width: 32px; padding: 0; }
.wc-button.wc-an-button--danger { background: var(--wc-danger); border-color: var(--wc-danger); color: #fff; }
.wc-button.wc-an-button--danger:hover:not(:disabled) { background: #a61e1e; }
.wc-an-skeleton__bar { display: block; height: 0.8rem; border-radius: 4px; background: linear-gradient(90deg, var(--wc-surface-muted), var(--wc-border), var(--wc-surface-muted)); background-size: 200% 100%; animation: wc-an-shimmer 1.2s linear infinite; }
@media (prefers-reduced-motion: reduce) { .wc-an-skeleton__bar { animation: none; } }
@keyframes wc-an-shimmer { from { background-position: 200% 0; } to { background-position: -200% 0; } }
.wc-an-state { display: grid; justify-items: center; gap: 0.4rem; padding: 1.5rem 0.5rem; text-align: center; margin: 0; }
.wc-an-state__title { font-weight: 600; margin: 0; }
.wc-an-pager { display: flex; align-items: center; justify-content: space-between; gap: 1rem; flex-wrap: wrap; font-size: 0.875rem; }
.wc-an-pager__buttons { display: flex; align-items: center; gap: 0.6rem; }
.wc-an-sr { position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden; clip: rect(0, 0, 0, 0); white-space: nowrap; border: 0; }
.wc-an-dialog { width: min(560px, calc(100vw - 2rem)); max-height: calc(100vh - 2rem); overflow-y: auto; border: 0; border-radius: var(--wc-radius); padding: 1.25rem; background: var(--wc-surface); color: var(--wc-text); box-shadow: 0 18px 50px rgba(0, 0, 0, 0.25); }
.wc-an-dialog::backdrop { background: rgba(15, 18, 28, 0.45); }
.wc-an-dialog__title { margin: 0 0 0.6rem; font-size: 1.15rem; }
.wc-an-dialog__actions { display: flex; justify-content: flex-end; gap: 0.5rem; margin-top: 1rem; }
.wc-an-dialog p { margin: 0.4rem 0; }
.wc-an-preview { margin: 0.3rem 0 0.6rem; padding-left: 1.2rem; font-size: 0.9rem; }
.wc-an-preview--videos { max-height: 160px; overflow-y: auto; font-weight: 500; }
.wc-an-files { font-size: 0.8rem; margin: 0.3rem 0; }
.wc-an-files ul { max-height: 140px; overflow-y: auto; margin: 0.3rem 0; padding-left: 1.2rem; }
.wc-an-files code { font-family: var(--wc-mono); overflow-wrap: anywhere; }
.wc-an-warning { color: var(--wc-danger); font-weight: 600; }
`;

/** The stylesheet element (hoisted and deduplicated by React 19). */
export function AnalyticsStyles() {
  return (
    <style href="wordcut-analytics" precedence="wordcut-analytics">
      {ANALYTICS_CSS}
    </style>
  );
}
