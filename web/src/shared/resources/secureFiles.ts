import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { downloadFile } from '../../lib/apiClient';
import { saveDownloadedFile } from '../../lib/saveFile';

/**
 * A dashboard item's file and picture live under /rest/secure (docs/api.md Dashboard resources), where every
 * call must carry the XSRF header (000 §7), which a plain <img src> or <a href> cannot send: such addresses
 * are fetched with the call's headers and shown or saved from memory. Other addresses (a link's target, an
 * e-learning package on its own origin, a local preview) are used as they are.
 */
export const isSecurePath = (url: string) => url.startsWith('/rest/secure/');

/** An address the browser can show: the secure picture fetched once (its URL carries its digest) as a blob URL. */
export function useDisplayableUrl(url: string | null): string | null {
  const secure = !!url && isSecurePath(url);
  const file = useQuery({
    queryKey: ['resourceFile', url],
    queryFn: () => downloadFile(url!),
    enabled: secure,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  const [objectUrl, setObjectUrl] = useState<string | null>(null);
  const blob = file.data?.blob;
  useEffect(() => {
    if (!blob) return setObjectUrl(null);
    const next = URL.createObjectURL(blob);
    setObjectUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [blob]);
  return secure ? objectUrl : url;
}

/** Downloads a secure file with the call's headers and saves it under the server's name (else `name`). */
export async function downloadSecureFile(url: string, name: string): Promise<void> {
  saveDownloadedFile(await downloadFile(url), name);
}
