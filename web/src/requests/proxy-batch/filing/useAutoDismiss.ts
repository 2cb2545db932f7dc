import { useEffect } from 'react';

/**
 * Calls `dismiss` `ms` after `shown` becomes truthy (or changes), unless it changes or goes first: the proxy
 * page's alerts go after 10,000 ms (001 §9 "proxy alerts after 10000 ms", PROXY_TIMINGS.alertMs).
 */
export function useAutoDismiss(shown: unknown, ms: number, dismiss: () => void): void {
  useEffect(() => {
    if (!shown) return;
    const timer = setTimeout(dismiss, ms);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- restart only when what is shown changes
  }, [shown, ms]);
}
