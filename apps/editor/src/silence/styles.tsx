/**
 * The silence panel's, overlay's and transcript marks' rules (on the shell's `--wc-*` variables);
 * hoisted into <head> once per page like the editor's own stylesheet.
 */
export const SILENCE_CSS = `
.wc-silence-panel {
  position: fixed; top: 0; right: 0; bottom: 0; z-index: 50; width: min(440px, 100vw); overflow-y: auto;
  display: grid; align-content: start; gap: 0.75rem; padding: 1rem;
  background: var(--wc-surface); border-left: 1px solid var(--wc-border); box-shadow: -8px 0 30px rgba(15, 18, 28, 0.16);
}
.wc-silence-panel:focus-visible { outline: 2px solid var(--wc-accent); outline-offset: -2px; }
.wc-silence-panel__head { display: flex; align-items: center; gap: 0.5rem; flex-wrap: wrap; }
.wc-silence-panel__title { margin: 0; font-size: 1.1rem; flex: 1 1 auto; }
.wc-silence-panel__subtitle { margin: 0 0 0.35rem; font-size: 0.95rem; }
.wc-silence-controls { display: grid; grid-template-columns: minmax(0, 1fr) auto; gap: 0.4rem 0.75rem; align-items: center; }
.wc-silence-controls__label { grid-column: 1 / -1; font-weight: 600; font-size: 0.9rem; display: flex; justify-content: space-between; }
.wc-silence-controls input[type="range"] { width: 100%; accent-color: var(--wc-accent); }
.wc-silence-controls__check { grid-column: 1 / -1; font-size: 0.85rem; }
.wc-speech-analysis__grid { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 0.4rem; margin: 0; }
.wc-speech-analysis__grid div { background: var(--wc-surface-muted); border-radius: var(--wc-radius-small); padding: 0.35rem 0.5rem; }
.wc-speech-analysis__grid dt { font-size: 0.75rem; color: var(--wc-text-muted); }
.wc-speech-analysis__grid dd { margin: 0; font-weight: 600; }
.wc-silence-actions { display: flex; flex-wrap: wrap; gap: 0.4rem; }
.wc-silence-list { height: 400px; overflow-y: auto; border: 1px solid var(--wc-border); border-radius: var(--wc-radius-small); contain: strict; }
.wc-silence-list:focus-visible { outline: 2px solid var(--wc-accent); outline-offset: 1px; }
.wc-silence-list__inner { position: relative; width: 100%; margin: 0; padding: 0; list-style: none; }
.wc-silence-row {
  position: absolute; top: 0; left: 0; right: 0; display: grid; gap: 0.3rem; padding: 0.5rem 0.6rem;
  border-bottom: 1px solid var(--wc-border); border-left: 4px solid transparent; cursor: pointer; background: var(--wc-surface);
}
.wc-silence-row--remove { border-left-color: var(--wc-danger); }
.wc-silence-row--keep { border-left-color: var(--wc-success); }
.wc-silence-row--selected { background: var(--wc-accent-soft); }
.wc-silence-row__head { display: flex; flex-wrap: wrap; align-items: center; gap: 0.4rem; font-size: 0.85rem; }
.wc-silence-row__time { font-family: var(--wc-mono); font-weight: 600; }
.wc-silence-row__confidence { color: var(--wc-text-muted); }
.wc-silence-row__context { margin: 0; font-size: 0.85rem; overflow-wrap: anywhere; }
.wc-silence-row__gap { font-family: var(--wc-mono); color: #8f1f1f; }
.wc-silence-row__reason { margin: 0; font-size: 0.8rem; color: var(--wc-text-muted); }
.wc-silence-row__actions { display: flex; gap: 0.5rem; align-items: center; }
.wc-silence-toggle { display: inline-flex; align-items: center; gap: 0.3rem; font-size: 0.85rem; cursor: pointer; }
.wc-silence-toggle input { accent-color: var(--wc-danger); width: 1rem; height: 1rem; }
.wc-silence-toggle--remove { color: #8f1f1f; font-weight: 600; }
.wc-badge.wc-silence-type--technical { background: #fde8e8; color: #8f1f1f; }
.wc-badge.wc-silence-type--awkward { background: #fff4d6; color: #7a4d00; }
.wc-badge.wc-silence-type--dramatic { background: #ecebfa; color: #4b3f9e; }
.wc-badge.wc-silence-type--natural { background: #e6f4ea; color: #1e6b34; }
.wc-pause-help { max-width: 640px; max-height: 90vh; overflow-y: auto; }
.wc-pause-help__body { font-size: 0.9rem; }
.wc-pause-help__body h3 { font-size: 0.95rem; margin: 0.9rem 0 0.25rem; }
.wc-pause-help__body p, .wc-pause-help__body ul { margin: 0.25rem 0; }
.wc-silence-overlay { position: fixed; inset: 0; z-index: 70; display: grid; place-items: center; background: rgba(15, 18, 28, 0.78); }
.wc-silence-overlay__card { width: min(480px, 92vw); display: grid; gap: 0.6rem; padding: 1.5rem; border-radius: var(--wc-radius); background: var(--wc-surface); box-shadow: 0 20px 60px rgba(0, 0, 0, 0.35); }
.wc-silence-overlay__message { margin: 0; }
.wc-silence-overlay[data-phase="loading"] { animation: wc-silence-fade 0.3s ease 1.7s forwards; }
@keyframes wc-silence-fade { to { opacity: 0; } }
.wc-silence-mark {
  display: inline-block; margin: 0 0.15em; padding: 0 0.35em; border-radius: 4px; font-size: 0.75rem; font-family: var(--wc-mono);
  background: #fde8e8; color: #8f1f1f; text-decoration: line-through; vertical-align: middle;
}
@media (prefers-reduced-motion: reduce) { .wc-silence-overlay[data-phase="loading"] { animation: none; } }
`;

export function SilenceStyles() {
  return (
    <style href="wordcut-silence" precedence="wordcut-editor">
      {SILENCE_CSS}
    </style>
  );
}
