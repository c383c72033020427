/**
 * The KeyClips remote's own rules, on top of the shell's stylesheet (its `--wc-*` variables and
 * `wc-button`/`wc-muted`/`wc-empty` classes). No CSS file: React hoists this <style> into <head>
 * once per page. Classes are prefixed `wc-kc`. Colours keep 4.5:1 contrast on their backgrounds.
 */
export const KEYCLIPS_CSS = `
.wc-kc { display: flex; flex-direction: column; min-height: 100%; }
.wc-kc__page { display: flex; flex-direction: column; gap: 1rem; flex: 1; min-height: 0; }
.wc-kc__header { display: flex; justify-content: space-between; align-items: flex-start; gap: 1rem; }
.wc-kc__title { margin: 0; font-size: 1.35rem; }
.wc-kc__subtitle { margin: 0.15rem 0 0; }
.wc-kc__loading { padding: 2rem; text-align: center; }
.wc-kc__workspace { display: flex; gap: 1.25rem; align-items: stretch; flex: 1; min-height: 0; }
.wc-kc__list { flex: 0 0 40%; max-width: 40%; display: flex; flex-direction: column; min-height: 0; }
.wc-kc__preview { flex: 1 1 60%; min-width: 0; display: flex; flex-direction: column; gap: 0.6rem; background: var(--wc-surface); border: 1px solid var(--wc-border); border-radius: var(--wc-radius); padding: 1rem; }
.wc-kc__section-title { margin: 0 0 0.5rem; font-size: 1rem; }
.wc-kc__cards { list-style: none; margin: 0; padding: 0 0.25rem 0 0; display: grid; gap: 0.6rem; overflow-y: auto; max-height: calc(100vh - 10rem); }
.wc-kc-card { background: var(--wc-surface); border: 1px solid var(--wc-border); border-radius: var(--wc-radius); }
.wc-kc-card--selected { border-color: var(--wc-accent); box-shadow: 0 0 0 2px var(--wc-accent-soft); }
.wc-kc-card__main { display: grid; gap: 0.3rem; width: 100%; text-align: left; background: none; border: 0; padding: 0.75rem 0.9rem 0.4rem; font: inherit; color: inherit; cursor: pointer; border-radius: var(--wc-radius) var(--wc-radius) 0 0; }
.wc-kc-card__top { display: flex; justify-content: space-between; align-items: center; gap: 0.5rem; flex-wrap: wrap; }
.wc-kc-card__engagement { font: inherit; font-weight: 600; font-size: 0.85rem; color: var(--wc-success); background: none; border: 0; padding: 0.1rem 0; cursor: help; text-decoration: underline dotted; }
.wc-kc-card__foot { display: flex; justify-content: space-between; align-items: baseline; gap: 0.5rem; padding: 0 0 0 0.9rem; }
.wc-kc-card__title { font-weight: 600; line-height: 1.35; }
.wc-kc-card__meta { font-size: 0.8rem; color: var(--wc-text-muted); }
.wc-kc-card__why { background: none; border: 0; color: var(--wc-accent-strong); font: inherit; font-size: 0.8rem; text-decoration: underline; padding: 0.1rem 0.9rem 0.6rem; cursor: pointer; }
.wc-kc-card__reasons { padding: 0 0.9rem 0.75rem; font-size: 0.85rem; }
.wc-kc-card__reasons ul { margin: 0.3rem 0 0; padding-left: 1.1rem; }
.wc-kc-card__description { margin: 0; color: var(--wc-text-muted); }
.wc-kc-badge { display: inline-block; border-radius: 999px; padding: 0.05rem 0.55rem; font-size: 0.75rem; font-weight: 600; }
.wc-kc-badge--high-impact { background: #fde8e8; color: #9b1c1c; }
.wc-kc-badge--actionable { background: #e3f2e7; color: #1d5c2c; }
.wc-kc-badge--entertaining { background: #fff1d6; color: #7a4a00; }
.wc-kc-badge--quotable { background: var(--wc-accent-soft); color: #2a3f9e; }
.wc-kc-badge--visual { background: #efe6fb; color: #5b2a99; }
.wc-kc__preview-header { display: flex; justify-content: space-between; align-items: baseline; gap: 0.75rem; flex-wrap: wrap; }
.wc-kc__preview-title { margin: 0; font-size: 1.05rem; }
.wc-kc__range { margin: 0; font-variant-numeric: tabular-nums; }
.wc-kc-stage { height: min(46vh, 460px); display: flex; align-items: center; justify-content: center; background: #1d1d1b; border-radius: var(--wc-radius-small); overflow: hidden; }
.wc-kc-stage__frame { position: relative; overflow: hidden; background: #000; cursor: pointer; touch-action: none; user-select: none; }
.wc-kc-stage__frame--pannable { cursor: grab; }
.wc-kc-stage__frame:focus-visible { outline: 3px solid var(--wc-focus); outline-offset: 2px; }
.wc-kc-stage__picture { position: absolute; }
.wc-kc-stage__video { display: block; width: 100%; height: 100%; object-fit: contain; pointer-events: none; }
.wc-kc__playbar { display: flex; gap: 0.5rem; }
.wc-kc-controls { display: grid; gap: 0.6rem; }
.wc-kc-ratios { display: grid; grid-template-columns: repeat(6, minmax(0, 1fr)); gap: 0.4rem; }
.wc-kc-ratio { display: grid; gap: 0.05rem; justify-items: center; padding: 0.35rem 0.25rem; border: 1px solid var(--wc-control-border); border-radius: var(--wc-radius-small); background: var(--wc-surface); color: var(--wc-text); font: inherit; cursor: pointer; }
.wc-kc-ratio[aria-pressed="true"] { background: var(--wc-accent); border-color: var(--wc-accent); color: #fff; }
.wc-kc-ratio__id { font-weight: 600; }
.wc-kc-ratio__name { font-size: 0.7rem; text-align: center; }
.wc-kc-zoom { display: flex; align-items: center; gap: 0.5rem; flex-wrap: wrap; }
.wc-kc-zoom__label { font-weight: 500; }
.wc-kc-zoom input[type="range"] { flex: 1; min-width: 8rem; accent-color: var(--wc-accent); }
.wc-kc-zoom__value { min-width: 2.5rem; font-variant-numeric: tabular-nums; }
.wc-kc-hint { margin: 0; font-size: 0.85rem; color: var(--wc-text-muted); }
.wc-kc__notice-area { margin-top: 0.75rem; }
.wc-kc__notice { margin: 0; border-radius: var(--wc-radius-small); padding: 0.45rem 0.7rem; font-size: 0.85rem; background: var(--wc-surface-muted); border: 1px solid var(--wc-border); }
.wc-kc__notice--warning { background: #fff4d6; border-color: #f0d58a; color: #6b4600; }
.wc-kc__notice--error { background: var(--wc-danger-soft); border-color: #f3b8b8; color: var(--wc-danger); }
.wc-kc__export { min-height: 42px; }
.wc-kc-guide-layer { position: fixed; inset: 0; z-index: 45; background: rgb(20 20 18 / 0.45); display: grid; place-items: center; padding: 1rem; }
.wc-kc-guide { width: min(720px, 100%); max-height: calc(100vh - 2rem); overflow-y: auto; background: var(--wc-surface); color: var(--wc-text); border-radius: var(--wc-radius); padding: 1.25rem 1.5rem; box-shadow: 0 18px 50px rgba(0, 0, 0, 0.25); }
.wc-kc-guide__header { display: flex; justify-content: space-between; align-items: center; gap: 1rem; }
.wc-kc-guide__header h2 { margin: 0; font-size: 1.25rem; }
.wc-kc-guide h3 { font-size: 1rem; margin: 1rem 0 0.35rem; }
.wc-kc-guide p, .wc-kc-guide li, .wc-kc-guide dd { font-size: 0.9rem; }
.wc-kc-guide__categories { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 0.75rem; margin: 0; }
.wc-kc-guide__categories dt { font-weight: 600; }
.wc-kc-guide__categories dd { margin: 0; }
.wc-kc-guide__actions { justify-content: flex-end; margin-top: 1rem; }
@media (max-width: 900px) {
  .wc-kc-ratios { grid-template-columns: repeat(3, minmax(0, 1fr)); }
}
`;

export function KeyClipsStyles() {
  return (
    <style href="wordcut-keyclips" precedence="wordcut-keyclips">
      {KEYCLIPS_CSS}
    </style>
  );
}
