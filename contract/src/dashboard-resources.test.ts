/** The dashboard resources' shared rules (issue 23): link URLs (000 §5 keys) and file sizes (000 §9). */
import { describe, expect, it } from 'vitest';
import {
  DashboardItemBodySchema,
  dashboardItemBodySchema,
  formatFileSize,
  linkUrlProblem,
} from './dashboard-resources';
import { zodToFieldErrors } from './errors';

describe('link URLs', () => {
  const dev = { allowHttp: true };
  const prod = { allowHttp: false };

  it('accept https, and http only outside production', () => {
    expect(linkUrlProblem('https://www.example.org/page?q=1', prod)).toBeNull();
    expect(linkUrlProblem('http://www.example.org', dev)).toBeNull();
    expect(linkUrlProblem('http://www.example.org', prod)).toBe('protocolRequired');
  });

  it('need a known protocol (protocolRequired) and a top-level domain (invalidDomain)', () => {
    for (const url of [
      'www.example.org',
      'example.org/page',
      'ftp://example.org',
      'javascript:alert(1)',
      'data:text/html,x',
    ])
      expect(linkUrlProblem(url, dev), url).toBe('protocolRequired');
    for (const url of ['https://intranet', 'https://localhost/x', 'https://10.0.0.1/', 'https://example.c0m'])
      expect(linkUrlProblem(url, dev), url).toBe('invalidDomain');
    expect(linkUrlProblem('https://xn--bcher-kva.example/', dev)).toBeNull();
    expect(linkUrlProblem('https://user:pw@example.org', dev)).toBe('invalid');
    expect(linkUrlProblem(`https://example.org/${'a'.repeat(2100)}`, dev)).toBe('size');
  });

  it('are checked only on links, keyed `url`', () => {
    const base = { title: 'T', categoryId: 1, portalRoleIds: [1] };
    const bad = dashboardItemBodySchema(prod).safeParse({ ...base, kind: 'LINK', url: 'http://example.org' });
    expect(bad.success || zodToFieldErrors(bad.error)).toEqual({ url: ['protocolRequired'] });
    const empty = DashboardItemBodySchema.safeParse({ ...base, kind: 'LINK', url: ' ' });
    expect(empty.success || zodToFieldErrors(empty.error)).toEqual({ url: ['required'] });
    const download = DashboardItemBodySchema.parse({ ...base, kind: 'DOWNLOAD', url: 'nonsense' });
    expect(download.url).toBeNull();
  });
});

describe('file sizes', () => {
  it('are shown in B, KB, MB, GB and TB, base 1024 (000 §9)', () => {
    expect(formatFileSize(0)).toBe('0 B');
    expect(formatFileSize(1023)).toBe('1023 B');
    expect(formatFileSize(1024)).toBe('1.0 KB');
    expect(formatFileSize(1536)).toBe('1.5 KB');
    expect(formatFileSize(5 * 1024 ** 2)).toBe('5.0 MB');
    expect(formatFileSize(2 * 1024 ** 3)).toBe('2.0 GB');
    expect(formatFileSize(3 * 1024 ** 4)).toBe('3.0 TB');
  });
});
