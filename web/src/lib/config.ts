/** Build-time settings of the browser app (000 §1: project name header, support address, privacy notice). */
export const SITE_TITLE = 'Portal Gateway';
export const PROJECT_NAME = import.meta.env.VITE_PROJECT_NAME ?? 'portal-gateway';
export const PRIVACY_URL = import.meta.env.VITE_PRIVACY_URL ?? '/privacy.html';
/**
 * The 'User Manual (PDF)' link of the side navigation (000 §2 Routes: external, so configured); default the
 * PDF the portal's API serves (docs/manual, built by scripts/src/manual/build-pdf.ts).
 */
export const USER_MANUAL_URL = import.meta.env.VITE_USER_MANUAL_URL || '/manual/user-manual.pdf';
export const SUPPORT_EMAIL = import.meta.env.VITE_SUPPORT_EMAIL ?? 'support@portal-gateway.example';
/** Local storage key of the XSRF token returned by sign-in (000 §3). */
export const XSRF_STORAGE_KEY = 'xsrfToken';
/** Session storage key of the cached site list (000 §3). */
export const SITES_STORAGE_KEY = 'apiSites';
