/**
 * The manifestation of signatures (21 CFR Part 11 §11.50, §11.70): who signed, when (the screens' date format),
 * meaning what, and whether the record still matches, the mismatch worded and not only coloured; nothing for
 * a view without signatures (signatures off).
 */
import { MantineProvider } from '@mantine/core';
import { SIGNATURE_TEXTS, type SignatureView } from '@portal/contract';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { formatDateTime } from '../format';
import { theme } from '../theme/theme';
import { SignatureManifest, signaturesOf } from './SignatureManifest';

const signature = (patch: Partial<SignatureView> = {}): SignatureView => ({
  id: 's1',
  signerName: 'Rita Reviewer',
  signerUsername: 'rita',
  signedAt: '2026-12-03T10:15:00Z',
  meaning: 'Approved',
  method: 'PASSWORD',
  action: 'REQUEST_APPROVAL',
  valid: true,
  ...patch,
});

const show = (view: unknown) =>
  render(
    <MantineProvider theme={theme}>
      <SignatureManifest view={view} />
    </MantineProvider>,
  );

describe('SignatureManifest', () => {
  it('shows a valid signature: name, username, time, meaning, matches', () => {
    show({ signatures: [signature()] });
    const list = screen.getByRole('list', { name: SIGNATURE_TEXTS.legend });
    const [item] = within(list).getAllByRole('listitem');
    expect(item).toHaveTextContent(
      `Signed by Rita Reviewer (rita) on ${formatDateTime('2026-12-03T10:15:00Z')} — Approved`,
    );
    expect(item).toHaveTextContent(SIGNATURE_TEXTS.matches);
    expect(item).not.toHaveTextContent(SIGNATURE_TEXTS.mismatch);
  });

  it('shows a signature whose record changed since as not matching, in words', () => {
    show({ signatures: [signature({ valid: false, meaning: 'Rejected', id: 's2' })] });
    const item = screen.getByRole('listitem');
    expect(item).toHaveTextContent('— Rejected');
    expect(item).toHaveTextContent(SIGNATURE_TEXTS.mismatch);
    expect(item).not.toHaveTextContent(SIGNATURE_TEXTS.matches);
  });

  it('shows nothing for a view without signatures, and leaves out entries of another shape', () => {
    show({ id: 7 });
    expect(screen.queryByRole('list')).toBeNull();
    expect(screen.queryByText(/Signed by/)).toBeNull();
    expect(signaturesOf({ signatures: [{ id: 'x' }, signature()] })).toHaveLength(1);
    expect(signaturesOf(null)).toEqual([]);
  });
});
