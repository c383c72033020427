/**
 * The publish remote's own rules, on top of the shell's stylesheet (its `--wc-*` variables and
 * `wc-button`/`wc-muted` classes). Like the editor, the remote ships no CSS file: React 19 hoists
 * this <style> into <head> once per page (href + precedence dedupe it). Every class is prefixed
 * `wc-pub-` so the remote never depends on, or collides with, the editor's dialog rules. Dialogs
 * sit at z-index 50/51 like the editor's, under the toast area (60) and tooltips (70), so the
 * toasts raised while a dialog is open stay visible.
 */
export const PUBLISH_CSS = `
.wc-pub-actions { display: inline-flex; align-items: center; gap: 0.5rem; }
.wc-pub-actions [aria-disabled="true"] { opacity: 0.55; cursor: not-allowed; }
.wc-pub-overlay { position: fixed; inset: 0; background: rgba(15, 18, 28, 0.45); z-index: 50; }
.wc-pub-dialog {
  position: fixed; z-index: 51; top: 50%; left: 50%; transform: translate(-50%, -50%);
  width: calc(100vw - 2rem); max-height: calc(100vh - 2rem); overflow-y: auto;
  background: var(--wc-surface); color: var(--wc-text); border-radius: var(--wc-radius); padding: 1.25rem;
  box-shadow: 0 18px 50px rgba(0, 0, 0, 0.25); white-space: normal; text-align: left;
}
.wc-pub-dialog:focus-visible { outline: 3px solid var(--wc-focus); }
/* the selection dialog is 600 px wide from the sm breakpoint (640 px) up */
@media (min-width: 640px) { .wc-pub-dialog--select { width: 600px; } }
/* the export progress dialog is 500 px wide */
.wc-pub-dialog--progress { width: min(500px, calc(100vw - 2rem)); }
.wc-pub-dialog--small { width: min(440px, calc(100vw - 2rem)); }
.wc-pub-dialog__title { margin: 0 0 0.35rem; font-size: 1.15rem; }
.wc-pub-dialog__description { margin: 0 0 0.75rem; color: var(--wc-text-muted); font-size: 0.9rem; }
.wc-pub-dialog__actions { display: flex; justify-content: flex-end; flex-wrap: wrap; gap: 0.5rem; margin-top: 1rem; }
.wc-pub-quota { border: 1px solid var(--wc-border); border-radius: var(--wc-radius-small); padding: 0.5rem 0.75rem; margin-bottom: 0.75rem; background: var(--wc-surface-muted); }
.wc-pub-quota__title { font-weight: 600; font-size: 0.85rem; margin: 0 0 0.2rem; }
.wc-pub-quota__lines { list-style: none; margin: 0; padding: 0; font-size: 0.85rem; }
.wc-pub-notice { border-radius: var(--wc-radius-small); padding: 0.5rem 0.75rem; margin: 0.5rem 0; font-size: 0.875rem; }
.wc-pub-notice p { margin: 0; }
.wc-pub-notice--warning { background: #fff4d6; border: 1px solid #f0d58a; color: #6b4600; }
.wc-pub-notice--error { background: var(--wc-danger-soft); border: 1px solid #f3b8b8; color: var(--wc-danger); }
.wc-pub-notice--success { background: #e6f4ea; border: 1px solid #b7dfc1; color: var(--wc-success); }
.wc-pub-check { display: flex; align-items: flex-start; gap: 0.55rem; cursor: pointer; }
.wc-pub-check input { margin-top: 0.25rem; width: 1rem; height: 1rem; flex-shrink: 0; accent-color: var(--wc-accent); }
.wc-pub-check__text { display: grid; min-width: 0; }
.wc-pub-check__name { font-weight: 500; overflow-wrap: anywhere; }
.wc-pub-check__description { font-size: 0.8rem; color: var(--wc-text-muted); }
.wc-pub-select-all { padding: 0.4rem 0; border-bottom: 1px solid var(--wc-border); margin-bottom: 0.5rem; font-weight: 600; }
.wc-pub-group { border: 0; margin: 0 0 0.75rem; padding: 0; min-width: 0; }
.wc-pub-group__legend { font-weight: 600; font-size: 0.9rem; padding: 0; margin-bottom: 0.3rem; display: flex; gap: 0.4rem; align-items: center; }
.wc-pub-group__count { display: inline-block; min-width: 1.4em; padding: 0 0.35em; border-radius: 999px; background: var(--wc-accent-soft); color: var(--wc-accent-strong); font-size: 0.75rem; text-align: center; }
.wc-pub-group__list { list-style: none; margin: 0; padding: 0; display: grid; gap: 0.35rem; }
/* the clip list scrolls from 200 px */
.wc-pub-group__list--clips { max-height: 200px; overflow-y: auto; padding-right: 0.25rem; }
.wc-pub-item { border: 1px solid var(--wc-border); border-radius: var(--wc-radius-small); padding: 0.45rem 0.6rem; }
.wc-pub-switch { display: flex; align-items: center; justify-content: space-between; gap: 0.75rem; padding: 0.6rem 0; border-top: 1px solid var(--wc-border); margin-top: 0.5rem; cursor: pointer; }
.wc-pub-switch input { appearance: none; -webkit-appearance: none; position: relative; width: 2.3rem; height: 1.3rem; border-radius: 999px; background: var(--wc-control-border, #85857e); cursor: pointer; flex-shrink: 0; transition: background 0.15s; margin: 0; }
.wc-pub-switch input::after { content: ''; position: absolute; top: 0.15rem; left: 0.15rem; width: 1rem; height: 1rem; border-radius: 50%; background: #fff; box-shadow: 0 1px 2px rgba(0,0,0,0.2); transition: transform 0.15s; }
.wc-pub-switch input:checked { background: var(--wc-accent); }
.wc-pub-switch input:checked::after { transform: translateX(1rem); }
.wc-pub-switch input:disabled { opacity: 0.55; cursor: not-allowed; }
.wc-pub-progress { height: 10px; border-radius: 999px; background: var(--wc-surface-muted); overflow: hidden; margin: 0.75rem 0 0.4rem; }
.wc-pub-progress__bar { height: 100%; background: var(--wc-accent); transition: width 0.3s; }
.wc-pub-progress__figures { display: flex; justify-content: space-between; gap: 1rem; margin: 0; font-size: 0.9rem; }
.wc-pub-progress__percent { font-variant-numeric: tabular-nums; font-weight: 600; }
.wc-pub-summary { list-style: none; margin: 0.5rem 0 0; padding: 0; display: grid; gap: 0.3rem; max-height: 200px; overflow-y: auto; }
.wc-pub-summary__item { display: flex; justify-content: space-between; gap: 0.75rem; font-size: 0.875rem; border-bottom: 1px dashed var(--wc-border); padding-bottom: 0.25rem; }
.wc-pub-summary__status--uploaded { color: var(--wc-success); }
.wc-pub-summary__status--failed { color: var(--wc-danger); }
.wc-pub-details { margin-top: 0.5rem; font-size: 0.85rem; }
.wc-pub-details summary { cursor: pointer; }
.wc-pub-details pre { white-space: pre-wrap; overflow-wrap: anywhere; margin: 0.35rem 0 0; padding: 0.5rem; background: var(--wc-surface-muted); border-radius: var(--wc-radius-small); font-family: var(--wc-mono); font-size: 0.8rem; }
.wc-pub-spinner {
  width: 28px; height: 28px; margin: 0.5rem auto 0.75rem; border-radius: 50%;
  border: 3px solid var(--wc-accent-soft); border-top-color: var(--wc-accent);
  animation: wc-pub-spin 0.9s linear infinite;
}
@keyframes wc-pub-spin { to { transform: rotate(360deg); } }
.wc-pub-button--danger { background: var(--wc-danger); border-color: var(--wc-danger); color: #fff; }
.wc-pub-button--danger:hover:not(:disabled) { background: #a61e1e; }
@media (prefers-reduced-motion: reduce) { .wc-pub-spinner { animation: none; } .wc-pub-progress__bar { transition: none; } }
`;

export function PublishStyles() {
  return (
    <style href="wordcut-publish" precedence="wordcut-publish">
      {PUBLISH_CSS}
    </style>
  );
}
