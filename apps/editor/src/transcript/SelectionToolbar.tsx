import { forwardRef, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { RefObject } from 'react';
import type { MuteLevel } from '@wordcut/contracts';
import { useEditor, useEditorStore } from './editorContext';
import { MUTE_LEVEL_CHOICES } from './muteLevels';
import { shortcutOf } from './actions';
import { ToolButton } from './ToolButton';
import { isOutsidePress, placeToolbar, unionBox } from './toolbarPlacement';
import type { Box } from './toolbarPlacement';

export interface SelectionToolbarProps {
  allMuted: boolean;
  onKeep: () => void;
  onCreateClip: () => void;
  /** why Create Clip is disabled (a job is processing, the export quota is used up), or null */
  clipDisabledReason: string | null;
  onCopy: () => void;
  onCut: () => void;
  onMute: (level: MuteLevel) => void;
  onUnmute: () => void;
  /** the transcript area the toolbar floats in (its offset parent) */
  area: RefObject<HTMLElement | null>;
}

const boxOf = (rect: DOMRect, origin: DOMRect): Box => ({
  top: rect.top - origin.top,
  left: rect.left - origin.left,
  bottom: rect.bottom - origin.top,
  right: rect.right - origin.left,
});

/**
 * The floating toolbar of a selection: Keep, Create Clip, Copy, Cut, Mute at each level (with its
 * key) and Unmute when every selected word is muted. It sits above or below the selected words
 * where it hides none of them nor of the lines next to them (placeToolbar), inside the visible
 * transcript, follows them as the list scrolls, and closes on a press elsewhere. It comes right
 * after the transcript in tab order (Alt+F10 also reaches it).
 */
export const SelectionToolbar = forwardRef<HTMLDivElement, SelectionToolbarProps>(function SelectionToolbar(props, ref) {
  const { area } = props;
  const selection = useEditor((s) => s.selection);
  const own = useRef<HTMLDivElement | null>(null);
  const [position, setPosition] = useState<{ top: number; left: number } | null>(null);

  const place = useCallback(() => {
    const container = area.current;
    const toolbar = own.current;
    if (!container || !toolbar) return;
    const origin = container.getBoundingClientRect();
    const scroller = container.querySelector<HTMLElement>('[data-testid="transcript-list"]');
    const visible = scroller ? scroller.getBoundingClientRect() : origin;
    const viewport: Box = {
      top: Math.max(visible.top, 0) - origin.top,
      left: 0,
      bottom: Math.min(visible.bottom, window.innerHeight) - origin.top,
      right: origin.width,
    };
    const rendered = [...container.querySelectorAll<HTMLElement>('[data-word-index]')];
    const words = rendered.filter((el) => el.classList.contains('wc-word--selected')).map((el) => boxOf(el.getBoundingClientRect(), origin));
    const others = rendered.filter((el) => !el.classList.contains('wc-word--selected')).map((el) => boxOf(el.getBoundingClientRect(), origin));
    const selected = unionBox(words) ?? { top: viewport.top, left: 0, bottom: viewport.top, right: 0 };
    const placed = placeToolbar(selected, viewport, { width: toolbar.offsetWidth, height: toolbar.offsetHeight }, others);
    setPosition((current) => (current && current.top === placed.top && current.left === placed.left ? current : { top: placed.top, left: placed.left }));
  }, [area]);

  useLayoutEffect(place, [place, selection]);

  useEffect(() => {
    let frame = 0;
    const soon = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(place);
    };
    window.addEventListener('resize', soon);
    window.addEventListener('scroll', soon, true);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('resize', soon);
      window.removeEventListener('scroll', soon, true);
    };
  }, [place]);

  // a press outside the words, the toolbar and any control closes it (the selection ends)
  const store = useEditorStore();
  useEffect(() => {
    const onPress = (e: PointerEvent) => {
      if (e.target instanceof Element && isOutsidePress(e.target, own.current)) store.clearSelection();
    };
    document.addEventListener('pointerdown', onPress, true);
    return () => document.removeEventListener('pointerdown', onPress, true);
  }, [store]);

  const setRefs = (node: HTMLDivElement | null) => {
    own.current = node;
    if (typeof ref === 'function') ref(node);
    else if (ref) ref.current = node;
  };

  return (
    <div
      ref={setRefs}
      className="wc-selection-toolbar"
      role="toolbar"
      aria-label="Selection actions"
      data-testid="selection-toolbar"
      style={{ right: 'auto', maxWidth: '100%', ...(position ? { top: `${position.top}px`, left: `${position.left}px` } : { visibility: 'hidden' }) }}
    >
      <ToolButton label="Keep Selection" onClick={props.onKeep} />
      <ToolButton
        label="Create Clip"
        tooltip={props.clipDisabledReason ?? undefined}
        onClick={props.onCreateClip}
        disabled={props.clipDisabledReason !== null}
        testId="selection-create-clip"
      />
      <ToolButton label="Copy" shortcut={shortcutOf('copy')} onClick={props.onCopy} />
      <ToolButton label="Cut" shortcut={shortcutOf('mark-cut')} onClick={props.onCut} testId="selection-cut" />
      <span className="wc-selection-toolbar__group" role="group" aria-label="Mute" data-testid="selection-mute">
        <span className="wc-selection-toolbar__label" aria-hidden="true">
          Mute
        </span>
        {MUTE_LEVEL_CHOICES.map((choice) => (
          <ToolButton
            key={choice.level}
            label={`Mute as ${choice.label}`}
            tooltip={`Mute as ${choice.label} (${choice.key})`}
            shortcut={choice.key}
            onClick={() => props.onMute(choice.level)}
            testId={`selection-mute-${choice.level}`}
          >
            {choice.label} <kbd className="wc-kbd">{choice.key}</kbd>
          </ToolButton>
        ))}
      </span>
      {props.allMuted ? <ToolButton label="Unmute" shortcut={shortcutOf('unmute')} onClick={props.onUnmute} /> : null}
    </div>
  );
});
