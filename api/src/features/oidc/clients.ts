/**
 * The provider's clients are the study systems' `SsoClient` rows (issue 22 "The systems are the clients"):
 * authorization code only (with refresh tokens), `client_secret_basic` for confidential clients and `none`
 * (PKCE S256 required by the provider) for public ones, ID tokens signed RS256 (never HS: the secret is only
 * stored hashed), and the sign-in level it asks for by default (issue 37). A client of an inactive system, or
 * of none, does not exist for the provider. The initiate-login URI is the portal's launch link ('My
 * applications'), not the provider's business.
 */
import type { AdapterPayload } from 'oidc-provider';
import { findUnrecognizedCharacter } from '@portal/contract';
import type { PrismaClient } from '@portal/db';

/**
 * Whether `key` (an id the provider read from a request: client id, token, uid) can name a row at all. A NUL
 * or a lone surrogate cannot be stored in PostgreSQL text, so no row has it and the query would fail; such a
 * key finds nothing, as an unknown one does (never a server error).
 */
export const storableKey = (key: string): boolean => findUnrecognizedCharacter(key) === null;

/** The client metadata of `clientId`, or undefined when it is unknown or its system is inactive. */
export async function clientMetadata(prisma: PrismaClient, clientId: string): Promise<AdapterPayload | undefined> {
  if (!storableKey(clientId)) return undefined;
  const row = await prisma.ssoClient.findUnique({ where: { clientId }, include: { system: true } });
  if (!row || row.system.inactive || row.system.fixed) return undefined;
  if (!row.isPublic && !row.secretHash) return undefined;
  return {
    client_id: row.clientId,
    client_name: row.system.systemName,
    ...(row.isPublic ? {} : { client_secret: row.secretHash! }),
    token_endpoint_auth_method: row.isPublic ? 'none' : 'client_secret_basic',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    redirect_uris: row.redirectUris,
    post_logout_redirect_uris: row.postLogoutRedirectUris,
    id_token_signed_response_alg: 'RS256',
    // Issue 37: the level the system asks for when its request names none (the provider applies it).
    ...(row.defaultAcr ? { default_acr_values: [row.defaultAcr] } : {}),
    // The portal's own metadata: which system this client is.
    system_access_id: row.systemAccessId,
  } as AdapterPayload;
}

/** The system a client signs in to, for the access check and the `study_access` claim. */
export async function systemOfClient(
  prisma: PrismaClient,
  clientId: string,
): Promise<{ id: number; systemName: string } | null> {
  if (!storableKey(clientId)) return null;
  const row = await prisma.ssoClient.findUnique({ where: { clientId }, include: { system: true } });
  return row && !row.system.inactive ? { id: row.system.id, systemName: row.system.systemName } : null;
}
