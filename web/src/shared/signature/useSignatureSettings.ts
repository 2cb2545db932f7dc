import { DEFAULT_SIGNATURE_MEANINGS, type SignatureAction, type SignatureSettings } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { getPortalSettings } from '../portalSettings';

const OFF: SignatureSettings = { enabled: false, meanings: {} };

/**
 * Whether decisions are signed on this portal and the meanings per action (portal settings' `signatures`),
 * read once per page load when `needed` (a screen that can make a signed decision). Off while loading or when
 * the settings cannot be read: the screen is then the spec's, and a call the API refuses with
 * SIGNATURE_REQUIRED asks for the signature after all.
 */
export function useSignatureSettings(needed: boolean): SignatureSettings {
  const query = useQuery({
    queryKey: ['portal-settings'],
    queryFn: ({ signal }) => getPortalSettings(signal),
    staleTime: Infinity,
    enabled: needed,
  });
  return query.data?.signatures ?? OFF;
}

/** The meanings offered for `action`: the configured ones, else the defaults. */
export function meaningsFor(settings: SignatureSettings, action: SignatureAction): string[] {
  const configured = settings.meanings[action];
  return configured && configured.length > 0 ? configured : DEFAULT_SIGNATURE_MEANINGS[action];
}
