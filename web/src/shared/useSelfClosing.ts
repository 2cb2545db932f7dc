import { useEffect, useRef, useState, type FocusEvent } from 'react';

/** 001 §9: alerts close by themselves after this long unless a screen's own delay applies. */
export const ALERT_AUTO_CLOSE_MS = 7_500;

/**
 * A message that closes by itself (001 §9 'Alerts auto-dismiss after 7500 ms by default') without cutting a
 * reader off (WCAG 2.2.1): the countdown of `ms` stops while the pointer is on the box or focus is inside it
 * (spread `pauseProps` on it) and goes on with the time that was left. `key` tells messages apart by what they
 * say (null: nothing shown), so a parent building the same message anew on every render does not restart
 * it; once `key` goes null, the same words shown again are a new message. A message with `closes` false (an
 * error: it asks for something) stays until closed. @returns whether the current message is still shown.
 */
export function useSelfClosing(key: string | null, closes: boolean, ms: number, onClose?: () => void) {
  // The parent's onClose is usually a new arrow per render: read it when the time is up, not as a dependency.
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  const [closed, setClosed] = useState<string | null>(null);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const remaining = useRef(ms);
  const counting = key !== null && closes && key !== closed;
  // A new message starts a full countdown (this effect runs before the countdown's own, in the same commit).
  useEffect(() => {
    remaining.current = ms;
    if (key === null) setClosed(null);
  }, [key, ms]);
  useEffect(() => {
    if (!counting || hovered || focused) return;
    const started = Date.now();
    const timer = setTimeout(() => {
      setClosed(key);
      onCloseRef.current?.();
    }, remaining.current);
    return () => {
      clearTimeout(timer);
      remaining.current = Math.max(0, remaining.current - (Date.now() - started));
    };
  }, [key, counting, hovered, focused]);
  return {
    shown: key !== null && key !== closed,
    pauseProps: {
      onMouseEnter: () => setHovered(true),
      onMouseLeave: () => setHovered(false),
      onFocus: () => setFocused(true),
      onBlur: (event: FocusEvent<HTMLElement>) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocused(false);
      },
    },
  };
}
