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
/* side by side, the player stays in view (under the 56 px header) while the transcript scrolls the page; the rest of the column passes under it */
@media (min-width: 1024px) {
  .wc-workspace__media { align-self: stretch; align-content: start; }
  .wc-workspace__media > .wc-player { position: sticky; top: calc(56px + 0.5rem); z-index: 4; box-shadow: 0 -0.5rem 0 var(--wc-bg); }
}
@media (min-width: 1024px) and (max-width: 1279px) { .wc-workspace .wc-card { padding: 1rem; } }
.wc-player { position: relative; }
.wc-player__controller { display: block; width: 100%; border-radius: var(--wc-radius); overflow: hidden; background: #000;
  --media-primary-color: #fff; --media-control-background: rgba(20, 24, 38, 0.72); --media-control-hover-background: rgba(59, 91, 219, 0.6); }
.wc-player__video { display: block; width: 100%; max-height: 60vh; background: #000; }
.wc-player__controls { width: 100%; }
.wc-player .wc-error-text { margin-top: 0.5rem; }
.wc-reframe { position: absolute; pointer-events: none; overflow: hidden; }
.wc-reframe__frame { position: absolute; box-shadow: 0 0 0 9999px rgba(0, 0, 0, 0.55); outline: 2px solid #fff; outline-offset: -2px; }
.wc-reframe__label { position: absolute; left: 6px; top: 6px; font-size: 0.75rem; color: #fff; background: rgba(0,0,0,0.6); padding: 1px 6px; border-radius: 4px; }
.wc-reframe__close { pointer-events: auto; position: absolute; right: 6px; top: 6px; border: 0; border-radius: 50%; width: 24px; height: 24px; background: rgba(0,0,0,0.6); color: #fff; cursor: pointer; }
.wc-timeline__bar { display: flex; align-items: center; justify-content: space-between; margin-bottom: 0.35rem; }
.wc-timeline__title { font-weight: 600; font-size: 0.9rem; }
.wc-timeline__zoom { display: inline-flex; align-items: center; gap: 0.35rem; }
.wc-timeline__zoom-level { min-width: 3.2em; text-align: center; font-variant-numeric: tabular-nums; font-size: 0.85rem; }
.wc-timeline__viewport:focus-visible { outline: 2px solid var(--wc-accent); outline-offset: 2px; }
.wc-timeline__content { position: relative; cursor: pointer; }
.wc-timeline__layer { position: sticky; left: 0; top: 0; }
.wc-preview-banners { display: flex; flex-wrap: wrap; gap: 0.4rem; }
.wc-chip--cut { background: var(--wc-danger-soft); color: var(--wc-danger); }
.wc-chip--mute { background: #fff4d6; color: #8a5a00; }
.wc-chip--keep { background: #e6f4ea; color: var(--wc-success); }
.wc-quick-export__hint { margin: 0 0 0.5rem; font-size: 0.9rem; }
.wc-quick-export__buttons { display: flex; flex-wrap: wrap; gap: 0.5rem; }
.wc-quick-export__buttons [aria-disabled="true"] { opacity: 0.55; cursor: not-allowed; }
.wc-quick-export__frame { display: flex; flex-wrap: wrap; align-items: center; gap: 0.3rem; margin-top: 0.6rem; font-size: 0.85rem; }
.wc-chip-button { border: 1px solid var(--wc-control-border, #85857e); background: var(--wc-surface); border-radius: 999px; padding: 0.1rem 0.55rem; cursor: pointer; font: inherit; font-size: 0.8rem; }
.wc-chip-button--on { background: var(--wc-accent); color: #fff; border-color: var(--wc-accent); }
.wc-clips__list { list-style: none; margin: 0; padding: 0; max-height: 20rem; overflow: auto; display: grid; gap: 0.5rem; }
.wc-clip { border: 1px solid var(--wc-border); border-radius: var(--wc-radius-small); padding: 0.5rem 0.6rem; display: grid; gap: 0.3rem; }
.wc-clip__head { display: flex; justify-content: space-between; gap: 0.5rem; align-items: center; }
.wc-clip__name { font-weight: 600; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.wc-clip__meta { font-size: 0.8rem; }
.wc-clip__actions { display: flex; flex-wrap: wrap; gap: 0.35rem; }
.wc-badge.wc-badge--clip-completed { background: #e6f4ea; color: var(--wc-success); }
.wc-badge.wc-badge--clip-processing, .wc-badge.wc-badge--clip-pending { background: #fff4d6; color: #8a5a00; }
.wc-badge.wc-badge--clip-failed { background: var(--wc-danger-soft); color: var(--wc-danger); }
.wc-dialog-overlay--light { background: rgba(15, 18, 28, 0.2); }
.wc-clip-dialog { width: min(500px, calc(100vw - 2rem)); }
/* two classes: after .wc-dialog's own width */
.wc-dialog.wc-clip-dialog--framing { width: min(860px, calc(100vw - 2rem)); max-height: calc(100vh - 2rem); overflow: auto; }
.wc-clip-dialog__body { display: grid; gap: 1rem; }
.wc-clip-dialog--framing .wc-clip-dialog__body { grid-template-columns: minmax(0, 1fr) minmax(0, 1.15fr); align-items: start; }
@media (max-width: 760px) { .wc-clip-dialog--framing .wc-clip-dialog__body { grid-template-columns: minmax(0, 1fr); } }
.wc-clip-framing { display: grid; gap: 0.5rem; margin-top: 0.75rem; }
.wc-clip-framing__stage { height: min(36vh, 320px); min-height: 160px; display: flex; align-items: center; justify-content: center; background: #1d1d1b; border-radius: var(--wc-radius-small); overflow: hidden; }
.wc-clip-framing__frame { position: relative; overflow: hidden; background: #000; cursor: pointer; touch-action: none; user-select: none; }
.wc-clip-framing__frame--pannable { cursor: grab; }
.wc-clip-framing__frame:focus-visible { outline: 3px solid var(--wc-focus, var(--wc-accent)); outline-offset: 2px; }
.wc-clip-framing__picture { position: absolute; }
.wc-clip-framing__video { display: block; width: 100%; height: 100%; object-fit: fill; pointer-events: none; }
.wc-clip-framing__zoom { display: flex; align-items: center; gap: 0.5rem; flex-wrap: wrap; }
.wc-clip-framing__zoom input[type="range"] { flex: 1; min-width: 7rem; accent-color: var(--wc-accent); }
.wc-clip-framing__value { min-width: 2.5rem; font-variant-numeric: tabular-nums; }
.wc-clip-framing__hint { margin: 0; font-size: 0.85rem; }
.wc-clip-framing__warning { color: #8a5a00; }
.wc-aspect-cards { border: 0; padding: 0; margin: 0.75rem 0 0; display: grid; grid-template-columns: repeat(3, minmax(0, 1fr)); gap: 0.5rem; }
.wc-aspect-card { display: grid; justify-items: center; gap: 0.2rem; border: 1px solid var(--wc-control-border, #85857e); border-radius: var(--wc-radius-small); padding: 0.5rem; cursor: pointer; text-align: center; }
.wc-aspect-card--on { border-color: var(--wc-accent); box-shadow: 0 0 0 2px var(--wc-accent-soft); }
.wc-aspect-card:focus-within { outline: 2px solid var(--wc-accent); outline-offset: 1px; }
.wc-aspect-card__shape { display: block; border: 2px solid currentColor; border-radius: 2px; margin-bottom: 0.2rem; }
.wc-aspect-card__name { font-weight: 600; font-size: 0.9rem; }
.wc-aspect-card__size { font-size: 0.75rem; }
.wc-visually-hidden { position: absolute; width: 1px; height: 1px; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; padding: 0; }
.wc-reorder__list { list-style: none; margin: 0.75rem 0 0; padding: 0; display: grid; gap: 0.4rem; max-height: 800px; overflow: auto; }
.wc-reorder__item { display: grid; grid-template-columns: auto auto minmax(0, 1fr) auto; gap: 0.5rem; align-items: center; border: 1px solid var(--wc-border); border-radius: var(--wc-radius-small); padding: 0.4rem 0.5rem; background: var(--wc-surface); }
.wc-reorder__item--dragging { box-shadow: 0 6px 18px rgba(15, 18, 28, 0.18); z-index: 2; position: relative; }
.wc-reorder__item--moved { border-left: 3px solid var(--wc-accent); }
.wc-reorder__item--playing { background: var(--wc-accent-soft); }
.wc-reorder__handle { cursor: grab; border: 0; background: transparent; font-size: 1.1rem; padding: 0.2rem 0.3rem; touch-action: none; }
.wc-reorder__handle:focus-visible { outline: 2px solid var(--wc-accent); }
.wc-reorder__badge { min-width: 1.6rem; height: 1.6rem; border-radius: 50%; display: grid; place-items: center; background: var(--wc-accent); color: #fff; font-size: 0.8rem; font-weight: 600; }
.wc-reorder__body { display: grid; min-width: 0; }
.wc-reorder__time { font-size: 0.75rem; }
.wc-reorder__text { overflow: hidden; text-overflow: ellipsis; display: -webkit-box; -webkit-line-clamp: 2; -webkit-box-orient: vertical; }
.wc-reorder__arrows { display: flex; gap: 0.25rem; }
.wc-active-jobs-button { position: fixed; right: 1.25rem; bottom: 4.5rem; z-index: 40; box-shadow: 0 4px 14px rgba(15, 18, 28, 0.2); }
.wc-job-cards { list-style: none; margin: 0.5rem 0 0; padding: 0; display: grid; gap: 0.5rem; max-height: 24rem; overflow: auto; }
.wc-job-card { border: 1px solid var(--wc-border); border-radius: var(--wc-radius-small); padding: 0.5rem 0.6rem; display: grid; gap: 0.35rem; }
.wc-job-card__head { display: flex; justify-content: space-between; align-items: center; }
.wc-toast__action { flex-shrink: 0; }
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
.wc-word { unicode-bidi: isolate; cursor: pointer; border-radius: 4px; padding: 0.05rem 0.1rem; border-bottom: 2px solid transparent; }
.wc-word:hover { background: var(--wc-surface-muted); }
.wc-word--medium { border-bottom-color: #f0b429; }
.wc-word--low { border-bottom-color: var(--wc-danger); color: #8f1f1f; }
.wc-word--active { background: var(--wc-accent-soft); color: var(--wc-accent-strong); }
.wc-transcript-editor { display: grid; grid-template-columns: minmax(0, 1fr); gap: 0.6rem; min-width: 0; }
.wc-transcript-editor__list { min-width: 0; }
.wc-transcript__list { user-select: none; -webkit-user-select: none; }
.wc-editor-toolbar { display: grid; gap: 0.4rem; }
.wc-editor-toolbar__row { display: flex; flex-wrap: wrap; align-items: center; gap: 0.35rem; }
.wc-editor-toolbar__spacer { flex: 1; }
/* a narrow transcript column: the toolbar's rows flow into one compact, wrapping strip */
.wc-transcript { container-type: inline-size; }
@container (max-width: 640px) {
  .wc-editor-toolbar { display: flex; flex-wrap: wrap; align-items: center; gap: 0.25rem; min-width: 0; }
  .wc-editor-toolbar__row { display: contents; }
  .wc-editor-toolbar__spacer { display: none; }
  .wc-editor-toolbar .wc-button--small { min-height: 24px; padding: 0 0.4rem; font-size: 0.78rem; }
  .wc-editor-toolbar .wc-search { flex: 1 1 100%; flex-wrap: nowrap; gap: 0.25rem; font-size: 0.85rem; }
  .wc-editor-toolbar .wc-search__input { width: 0; min-width: 8rem; flex: 1 1 8.5rem; padding: 0.15rem 0.4rem; }
  .wc-editor-toolbar .wc-search__input.wc-search__input--replace { min-width: 5.5rem; flex: 1 1 6.5rem; }
  .wc-editor-toolbar .wc-search__count { min-width: 3.5em; font-size: 0.75rem; }
  .wc-editor-toolbar .wc-chip { padding: 0.05rem 0.4rem; font-size: 0.72rem; }
}
.wc-button.wc-button--pressed { background: var(--wc-accent-soft); border-color: var(--wc-accent); color: var(--wc-accent-strong); }
.wc-button.wc-button--danger { background: var(--wc-danger); border-color: var(--wc-danger); color: #fff; }
.wc-count { display: inline-block; min-width: 1.2em; padding: 0 0.3em; margin-left: 0.2em; border-radius: 999px; background: var(--wc-surface-muted); font-size: 0.75rem; text-align: center; }
.wc-chip { display: inline-block; padding: 0.15rem 0.55rem; border-radius: 999px; background: var(--wc-surface-muted); font-size: 0.8rem; color: var(--wc-text-muted); }
.wc-search { display: flex; flex-wrap: wrap; align-items: center; gap: 0.35rem; }
.wc-search__input { flex: 1 1 10.5rem; min-width: 10.5rem; padding: 0.3rem 0.5rem; border: 1px solid var(--wc-control-border, #85857e); border-radius: var(--wc-radius-small); font: inherit; }
.wc-search__input.wc-search__input--replace { flex-basis: 7.5rem; min-width: 7.5rem; }
.wc-search__count { font-size: 0.8rem; color: var(--wc-text-muted); min-width: 4.5em; text-align: center; }
.wc-pending-bar { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem; padding: 0.45rem 0.6rem; border-radius: var(--wc-radius); background: #fff4d6; border: 1px solid #f0d58a; }
.wc-pending-bar--keep { background: var(--wc-accent-soft); border-color: var(--wc-accent); }
.wc-transcript-editor__area { position: relative; min-width: 0; }
.wc-selection-toolbar {
  position: absolute; top: 0.35rem; right: 1rem; z-index: 5; display: flex; flex-wrap: wrap; gap: 0.3rem; padding: 0.35rem;
  background: var(--wc-surface); border: 1px solid var(--wc-border); border-radius: var(--wc-radius); box-shadow: 0 4px 14px rgba(0,0,0,0.08);
}
.wc-selection-toolbar__group { display: inline-flex; align-items: center; gap: 0.25rem; }
.wc-selection-toolbar__label { font-size: 0.8rem; font-weight: 600; }
.wc-kbd { display: inline-block; min-width: 1.1em; padding: 0 0.25em; border: 1px solid currentColor; border-radius: 3px; font: inherit; font-size: 0.75em; line-height: 1.3; text-align: center; }
.wc-word--selected { background: #cfe0ff; }
.wc-word--cut { text-decoration: line-through; text-decoration-thickness: 2px; color: #9a3b3b; background: #fde8e8; }
/* mute levels told apart without colour too: a solid, dashed or dotted underline (over the confidence one) */
.wc-word--mute-silence { background: #e6e6ea; border-bottom: 2px solid #555; }
.wc-word--mute-whisper { background: #ecebfa; border-bottom: 2px dashed #5b50b0; }
.wc-word--mute-background { background: #e8f3ee; border-bottom: 2px dotted #2f7a58; }
.wc-word--filler { text-decoration: underline wavy #d97706; text-underline-offset: 3px; }
.wc-word--found { background: #fff1a8; }
.wc-word--found-current { background: #ffc94d; outline: 2px solid #d99100; }
.wc-word--outside-keep { opacity: 0.35; }
.wc-word--selected.wc-word--cut { background: #f9c9c9; }
.wc-word:focus-visible { outline: 2px solid var(--wc-accent); outline-offset: 1px; }
.wc-paragraph--dimmed { opacity: 0.4; transition: opacity 0.15s; }
.wc-dialog-overlay { position: fixed; inset: 0; background: rgba(15, 18, 28, 0.45); z-index: 50; }
.wc-dialog {
  position: fixed; z-index: 51; top: 50%; left: 50%; transform: translate(-50%, -50%); width: min(92vw, 460px);
  background: var(--wc-surface); border-radius: var(--wc-radius); padding: 1.25rem; box-shadow: 0 18px 50px rgba(0,0,0,0.25);
}
.wc-dialog__title { margin: 0 0 0.5rem; font-size: 1.1rem; }
.wc-dialog__text p { margin: 0 0 0.5rem; }
.wc-dialog__list { margin: 0.25rem 0 0.75rem; padding-left: 1.2rem; max-height: 12rem; overflow: auto; font-size: 0.9rem; }
.wc-dialog__actions { display: flex; justify-content: flex-end; gap: 0.5rem; margin-top: 0.75rem; }
.wc-levels { border: 0; padding: 0; margin: 0.5rem 0; display: flex; gap: 1rem; }
.wc-meter, .wc-job-overlay .wc-progress { height: 8px; border-radius: 999px; background: var(--wc-surface-muted); overflow: hidden; margin: 0.75rem 0 0.4rem; }
.wc-progress__bar { height: 100%; background: var(--wc-accent); transition: width 0.3s; }
.wc-job-overlay__figures { display: flex; justify-content: space-between; margin: 0; font-size: 0.9rem; }
.wc-small { font-size: 0.8rem; }
.wc-popover { z-index: 60; background: var(--wc-surface); border: 1px solid var(--wc-border); border-radius: var(--wc-radius); padding: 0.75rem; box-shadow: 0 8px 30px rgba(0,0,0,0.15); max-width: 320px; }
.wc-popover--info p { margin: 0; font-size: 0.85rem; }
.wc-popover__arrow { fill: var(--wc-surface); }
.wc-info-button { width: 1.4rem; height: 1.4rem; padding: 0; border-radius: 50%; font-weight: 700; font-size: 0.8rem; }
.wc-menu { z-index: 60; min-width: 220px; background: var(--wc-surface); border: 1px solid var(--wc-border); border-radius: var(--wc-radius); padding: 0.3rem; box-shadow: 0 8px 30px rgba(0,0,0,0.15); }
.wc-menu__item { display: flex; justify-content: space-between; gap: 1rem; padding: 0.35rem 0.6rem; border-radius: var(--wc-radius-small); cursor: pointer; outline: none; font-size: 0.9rem; }
.wc-menu__item[data-highlighted] { background: var(--wc-accent-soft); color: var(--wc-accent-strong); }
.wc-menu__item[data-disabled] { opacity: 0.45; cursor: default; }
.wc-menu__shortcut { color: var(--wc-text-muted); font-size: 0.8rem; }
.wc-dialog:has(.wc-filler-review) { width: min(94vw, 620px); }
.wc-filler-review__list { max-height: 50vh; overflow-y: auto; display: grid; gap: 0.4rem; margin: 0.5rem 0; }
.wc-filler-review__kind { border: 1px solid var(--wc-border); border-radius: var(--wc-radius-small); padding: 0.3rem 0.6rem; margin: 0; }
.wc-filler-review__kind legend { padding: 0 0.25rem; }
.wc-filler-review__kind ul { list-style: none; margin: 0.25rem 0 0; padding: 0; display: grid; gap: 0.2rem; font-size: 0.9rem; }
.wc-filler-review mark { background: var(--wc-filler-bg, #fff3c4); color: inherit; padding: 0 0.1em; border-radius: 2px; }
.wc-badge { display: inline-block; margin-left: 0.35rem; padding: 0 0.35rem; border-radius: 999px; border: 1px solid currentColor; font-size: 0.72rem; line-height: 1.35; }
.wc-badge--warning { background: #fff4d6; color: #7a4b00; border-color: #b77900; }
.wc-dialog.wc-captions { width: min(94vw, 560px); max-height: 92vh; overflow-y: auto; }
.wc-captions__choice { flex-wrap: wrap; gap: 0.35rem 1rem; }
.wc-captions__choice legend { font-weight: 600; margin-bottom: 0.2rem; }
.wc-captions__preview { position: relative; aspect-ratio: 16 / 9; background: linear-gradient(135deg, #3b4a5a, #6b7f91); border-radius: var(--wc-radius-small); margin: 0.5rem 0; display: flex; justify-content: center; align-items: flex-end; padding: 7% 6%; }
.wc-captions__preview[data-position='middle'] { align-items: center; }
.wc-captions__preview[data-position='top'] { align-items: flex-start; padding-top: 5%; }
.wc-captions__sample { font-weight: 700; text-align: center; color: #fff; font-size: 1rem; }
.wc-captions__sample--small { font-size: 0.8rem; }
.wc-captions__sample--large { font-size: 1.25rem; }
.wc-captions__sample--boxed { background: rgba(0,0,0,0.75); padding: 0.1em 0.4em; }
.wc-captions__sample--classic { text-shadow: 0 0 2px #000, 0 0 2px #000, 1px 1px 2px #000; }
.wc-captions__sample--bold { color: #ffe500; font-size: 1.15em; text-shadow: 0 0 3px #000, 0 0 3px #000, 2px 2px 2px #000; }
.wc-export-list { list-style: none; margin: 0.25rem 0 0.5rem; padding: 0; display: grid; gap: 0.35rem; }
.wc-export-list .wc-button { width: 100%; text-align: left; }
.wc-export-dialog__heading { font-size: 0.95rem; margin: 0.75rem 0 0.25rem; }
.wc-dialog.wc-shortcut-sheet { width: min(94vw, 820px); max-height: 90vh; overflow-y: auto; }
.wc-shortcut-sheet__groups { display: grid; grid-template-columns: repeat(auto-fit, minmax(300px, 1fr)); gap: 0 1.5rem; }
.wc-shortcut-sheet h3 { font-size: 0.95rem; margin: 0.9rem 0 0.25rem; }
.wc-shortcut-sheet dl { margin: 0; }
.wc-shortcut-sheet__row { display: flex; justify-content: space-between; gap: 1rem; padding: 0.2rem 0; border-bottom: 1px solid var(--wc-border); font-size: 0.9rem; }
.wc-shortcut-sheet dt { flex: 1 1 auto; }
.wc-shortcut-sheet dd { margin: 0; display: flex; flex-wrap: wrap; justify-content: flex-end; align-items: center; gap: 0.25rem; white-space: nowrap; }
.wc-shortcut-sheet kbd { display: inline-block; min-width: 1.4em; padding: 0 0.3em; border: 1px solid var(--wc-text-muted); border-radius: 3px; font: inherit; font-size: 0.8rem; text-align: center; }
.wc-menu__separator { height: 1px; background: var(--wc-border); margin: 0.25rem 0; }
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
