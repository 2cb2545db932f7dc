import { useState } from 'react';

/**
 * 'Reload request' after a stale save (001 §2.8, §2.4, §2.10): keeps what the reviewer typed (`carried`, the
 * form's values as `Partial<V>`) and fetches the request afresh through `refetch`, so the form rebuilt on the new
 * version starts from those values. Spread the result into the review form (`carried`, `onReload`).
 */
export function useCarriedReload<V>(refetch: () => unknown) {
  const [carried, setCarried] = useState<Partial<V>>();
  const onReload = (kept: Partial<V>) => {
    setCarried(kept);
    void refetch();
  };
  return { carried, onReload };
}
