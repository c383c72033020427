/**
 * The editor's own rules, on top of the shell's stylesheet (its `--wc-*` variables and
 * `wc-` classes). The remote ships no CSS file: React 19 hoists this <style> into <head>
 * once per page (href + precedence dedupe it), so the remote stays self-contained.
 */
export const EDITOR_CSS = `
.wc-centered { text-align: center; padding: 2rem 0; }
.wc-entry { max-width: 40rem; margin: 0 auto; width: 100%; }
.wc-editor__title { display: flex; align-items: center; gap: 0.75rem; flex-wrap: wrap; min-width: 0; }
.wc-editor__title .wc-editor__heading { margin: 0; }
.wc-badge.wc-badge--video-uploaded { background: var(--wc-accent-soft); color: var(--wc-accent-strong); }
.wc-badge.wc-badge--video-processing { background: #fff4d6; color: #8a5a00; }
.wc-badge.wc-badge--video-completed { background: #e6f4ea; color: var(--wc-success); }
.wc-badge.wc-badge--video-failed { background: var(--wc-danger-soft); color: var(--wc-danger); }
.wc-card.wc-status-card { border-left: 4px solid var(--wc-accent); }
.wc-card.wc-status-card--error { border-left-color: var(--wc-danger); }
.wc-status-card__details { margin: 1rem 0 0; }
.wc-field__error { margin: 0; font-size: 0.9rem; }
.wc-upload__progress { margin-top: 0.5rem; }
.wc-spinner {
  width: 28px; height: 28px; margin: 0 auto 0.75rem; border-radius: 50%;
  border: 3px solid var(--wc-accent-soft); border-top-color: var(--wc-accent);
  animation: wc-spin 0.9s linear infinite;
}
@keyframes wc-spin { to { transform: rotate(360deg); } }
.wc-editor.wc-video-page { grid-template-columns: minmax(0, 1fr); }
.wc-workspace { display: grid; gap: 1.25rem; grid-template-columns: minmax(0, 1fr); align-items: start; }
@media (min-width: 1024px) { .wc-workspace { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); } }
.wc-workspace__media { display: grid; grid-template-columns: minmax(0, 1fr); gap: 0.75rem; min-width: 0; }
.wc-player__video { display: block; width: 100%; max-height: 60vh; background: #000; border-radius: var(--wc-radius); }
.wc-player .wc-error-text { margin-top: 0.5rem; }
.wc-timeline { background: var(--wc-surface); border: 1px solid var(--wc-border); border-radius: var(--wc-radius); padding: 0.5rem; }
.wc-timeline--empty { display: grid; place-items: center; min-height: 88px; }
.wc-timeline--empty p { margin: 0; }
.wc-timeline__viewport { overflow-x: auto; overflow-y: hidden; }
.wc-timeline__track { position: relative; cursor: pointer; border-radius: var(--wc-radius-small); }
.wc-timeline__canvas { display: block; }
.wc-timeline__playhead {
  position: absolute; top: 0; bottom: 0; left: -1px; width: 2px; background: var(--wc-danger);
  pointer-events: none; will-change: transform;
}
.wc-timeline__note { margin: 0.4rem 0 0; font-size: 0.85rem; }
.wc-transcript { min-width: 0; }
.wc-transcript__state { text-align: center; padding: 2.5rem 1rem; }
.wc-transcript__state-title { font-weight: 600; margin-bottom: 0.25rem; }
.wc-transcript__skeleton { display: grid; gap: 0.75rem; padding: 0.5rem 0; }
.wc-skeleton-line { height: 0.9rem; border-radius: 4px; background: var(--wc-surface-muted); animation: wc-pulse 1.4s ease-in-out infinite; }
@keyframes wc-pulse { 50% { opacity: 0.5; } }
.wc-transcript__scroll { overflow-y: auto; position: relative; }
.wc-transcript__list { position: relative; width: 100%; }
.wc-paragraph-slot { position: absolute; top: 0; left: 0; width: 100%; }
.wc-paragraph { padding: 0.5rem 0.25rem 0.75rem; border-bottom: 1px dashed var(--wc-border); }
.wc-paragraph__time { display: inline-block; font-family: var(--wc-mono); font-size: 0.8rem; color: var(--wc-text-muted); margin-bottom: 0.25rem; }
.wc-paragraph__text { margin: 0; line-height: 1.9; }
.wc-word { cursor: pointer; border-radius: 4px; padding: 0.05rem 0.1rem; border-bottom: 2px solid transparent; }
.wc-word:hover { background: var(--wc-surface-muted); }
.wc-word--medium { border-bottom-color: #f0b429; }
.wc-word--low { border-bottom-color: var(--wc-danger); color: #8f1f1f; }
.wc-word--active { background: var(--wc-accent-soft); color: var(--wc-accent-strong); }
.wc-editor-footer {
  display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem 1.25rem; padding: 0.6rem 1rem;
  border: 1px solid var(--wc-border); border-radius: var(--wc-radius); background: var(--wc-surface);
  font-size: 0.85rem; color: var(--wc-text-muted);
}
.wc-editor-footer__item { display: inline-flex; align-items: center; gap: 0.35rem; }
.wc-editor-footer__zoom { margin-left: auto; }
.wc-dot { width: 8px; height: 8px; border-radius: 50%; background: var(--wc-text-muted); }
.wc-dot--ok { background: var(--wc-success); }
@media (prefers-reduced-motion: reduce) { .wc-spinner, .wc-skeleton-line { animation: none; } }
`;

export function EditorStyles() {
  return (
    <style href="wordcut-editor" precedence="wordcut-editor">
      {EDITOR_CSS}
    </style>
  );
}
