import type { DownloadedFile } from './apiClient';

/**
 * Saves a downloaded file under its server-given name, else `fallbackName` (an object URL on a temporary link,
 * released a moment later); answers the name used.
 */
export function saveDownloadedFile(file: DownloadedFile, fallbackName: string): string {
  const name = file.fileName ?? fallbackName;
  const url = URL.createObjectURL(file.blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
  return name;
}
