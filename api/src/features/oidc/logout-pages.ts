/**
 * The provider's RP-initiated logout pages (issue 22), in the portal's words and accessible (WCAG 2.2 AA: a
 * language, a title, one heading, a labelled button with enough contrast, no third-party fonts), instead of the
 * library's defaults. The confirmation posts to the provider, which then redirects to the system's registered
 * post-logout URI on another site: the page's Content-Security-Policy allows that origin as a form target, which
 * the portal's own `form-action 'self'` would block.
 */
import type { KoaContextWithOIDC } from 'oidc-provider';

const STYLE = `body{font-family:system-ui,sans-serif;margin:0;padding:2rem;color:#1a1b1e;background:#f8f9fa}
main{max-width:32rem;margin:4rem auto;background:#fff;padding:2rem;border-radius:8px;border:1px solid #dee2e6}
h1{font-size:1.5rem;margin-top:0}button{font:inherit;padding:.6rem 1.2rem;border-radius:4px;border:0;
background:#1864ab;color:#fff;cursor:pointer}button:focus-visible,a:focus-visible{outline:3px solid #1c7ed6;
outline-offset:2px}a{color:#1864ab}`;

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
  `<title>${title} - Portal Gateway</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;

/** The CSP of a page whose form may lead to `target` (the registered post-logout URI), else only to the portal. */
function csp(target: unknown): string {
  let origin = '';
  try {
    if (typeof target === 'string') origin = ` ${new URL(target).origin}`;
  } catch {
    origin = '';
  }
  return `default-src 'self'; style-src 'unsafe-inline'; form-action 'self'${origin}; frame-ancestors 'none'; base-uri 'none'`;
}

/** `features.rpInitiatedLogout.logoutSource`: asks to confirm signing out of the portal's single sign-on. */
export async function logoutSource(ctx: KoaContextWithOIDC, form: string): Promise<void> {
  const client = ctx.oidc.client?.clientName ?? 'the study system';
  ctx.set('Content-Security-Policy', csp(ctx.oidc.params?.post_logout_redirect_uri));
  ctx.type = 'html';
  ctx.body = page(
    'Sign out',
    `<h1>Sign out</h1><p>Sign out of ${escapeHtml(String(client))} and the Portal Gateway's single sign-on?</p>` +
      `${form}<button type="submit" form="op.logoutForm" name="logout" value="yes">Yes, sign me out</button>`,
  );
}

/** `features.rpInitiatedLogout.postLogoutSuccessSource`: shown when the system named no post-logout URI. */
export async function postLogoutSuccessSource(ctx: KoaContextWithOIDC): Promise<void> {
  ctx.set('Content-Security-Policy', csp(undefined));
  ctx.type = 'html';
  ctx.body = page(
    'Signed out',
    `<h1>Signed out</h1><p>You are signed out of single sign-on.</p><p><a href="/app">Back to the Portal Gateway</a></p>`,
  );
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
