import * as TooltipPrimitive from '@radix-ui/react-tooltip';
import type { ReactElement, ReactNode } from 'react';

/** Tooltip delays: 700 ms to open, 300 ms skip delay between tooltips. */
export const TOOLTIP_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;

export function TooltipProvider({ children }: { children: ReactNode }) {
  return (
    <TooltipPrimitive.Provider delayDuration={TOOLTIP_DELAY_MS} skipDelayDuration={TOOLTIP_SKIP_DELAY_MS}>
      {children}
    </TooltipPrimitive.Provider>
  );
}

export interface TooltipProps {
  /** The tooltip text or content. */
  content: ReactNode;
  /** One focusable element (a button, a link); it becomes the trigger. */
  children: ReactElement;
  side?: 'top' | 'right' | 'bottom' | 'left';
}

/** A small tooltip on one focusable element; needs a {@link TooltipProvider} above it. */
export function Tooltip({ content, children, side = 'top' }: TooltipProps) {
  return (
    <TooltipPrimitive.Root>
      <TooltipPrimitive.Trigger asChild>{children}</TooltipPrimitive.Trigger>
      <TooltipPrimitive.Portal>
        <TooltipPrimitive.Content className="wc-tooltip" side={side} sideOffset={6}>
          {content}
          <TooltipPrimitive.Arrow className="wc-tooltip__arrow" />
        </TooltipPrimitive.Content>
      </TooltipPrimitive.Portal>
    </TooltipPrimitive.Root>
  );
}
