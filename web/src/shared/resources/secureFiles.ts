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

/** A blob as a data: URL (the portal's Content-Security-Policy allows data: pictures, not blob: ones). */
const dataUrlOf = (blob: Blob) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsDataURL(blob);
  });

/** A chosen file (the editor's preview of a new picture) as an address the page may show. */
export function useLocalPictureUrl(file: File | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setUrl(null);
    if (file)
      void dataUrlOf(file).then(
        (next) => live && setUrl(next),
        () => undefined,
      );
    return () => {
      live = false;
    };
  }, [file]);
  return url;
}

/** An address the browser can show: a secure picture fetched once (its URL carries its digest) as a data: URL. */
export function useDisplayableUrl(url: string | null): string | null {
  const secure = !!url && isSecurePath(url);
  const picture = useQuery({
    queryKey: ['resourcePicture', url],
    queryFn: async () => dataUrlOf((await downloadFile(url!)).blob),
    enabled: secure,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  return secure ? (picture.data ?? null) : url;
}

/** Downloads a secure file with the call's headers and saves it under the server's name (else `name`). */
export async function downloadSecureFile(url: string, name: string): Promise<void> {
  saveDownloadedFile(await downloadFile(url), name);
}
