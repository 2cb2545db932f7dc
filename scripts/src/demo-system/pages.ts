/**
 * The demo system's pages: small, accessible HTML (a language, a title, one h1, landmarks, a table with a
 * caption and column headers, visible focus, contrast above WCAG AA). Every value from outside is escaped.
 */
import { DEMO_SYSTEM_TITLE, PORTAL_MFA_ACR, PORTAL_PHR_ACR } from './config';
import type { SignedIn } from './sessions';

/** HTML-escapes `text`. */
export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const STYLE = `
  body { font-family: system-ui, sans-serif; margin: 0; color: #1a1a1a; background: #fff; line-height: 1.5; }
  header { background: #0b3d5c; color: #fff; padding: 0.75rem 1.5rem; }
  header p { margin: 0; font-weight: 600; }
  main { padding: 1rem 1.5rem 2rem; max-width: 60rem; }
  h1 { font-size: 1.6rem; margin: 0.5rem 0 1rem; }
  a { color: #0b5cad; }
  a:focus-visible { outline: 3px solid #b35900; outline-offset: 2px; }
  .button { display: inline-block; padding: 0.5rem 1rem; background: #0b5cad; color: #fff; border-radius: 4px;
    text-decoration: none; font-weight: 600; margin: 0 0.5rem 0.5rem 0; }
  .notice { border-left: 4px solid #0b5cad; background: #eef5fc; padding: 0.5rem 1rem; }
  .alert { border-left: 4px solid #b00020; background: #fdecee; padding: 0.5rem 1rem; }
  .table-wrap { overflow-x: auto; }
  table { border-collapse: collapse; margin: 1rem 0; min-width: 100%; }
  caption { text-align: left; font-weight: 600; padding-bottom: 0.25rem; }
  th, td { border: 1px solid #8a8a8a; padding: 0.4rem 0.6rem; text-align: left; vertical-align: top; }
  th { background: #f0f0f0; }
  @media (max-width: 30rem) {
    header, main { padding-left: 1rem; padding-right: 1rem; }
    th, td { padding: 0.3rem 0.4rem; }
  }
`;

/** A whole page: `title` goes before the system's name in the tab title; `body` is trusted HTML. */
export function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · ${escapeHtml(DEMO_SYSTEM_TITLE)}</title>
<style>${STYLE}</style>
</head>
<body>
<header><p>${escapeHtml(DEMO_SYSTEM_TITLE)}</p></header>
<main>
${body}
</main>
</body>
</html>
`;
}

const signInLink = `<p><a class="button" href="/login">Sign in with the Portal Gateway</a></p>
<p><a class="button" href="/login?level=mfa">Sign in with a second step</a></p>
<p><a class="button" href="/login?level=phr">Sign in with a passkey</a></p>`;

/** How the person signed in, in words, from the ID token's `acr` and `amr` (issue 37). */
function signInLevel(user: SignedIn): string {
  if (!user.acr) return '';
  const how =
    user.acr === PORTAL_PHR_ACR
      ? 'a passkey or security key'
      : user.acr === PORTAL_MFA_ACR
        ? 'your password and a second step'
        : 'your password';
  return `<p>Signed in with ${how} (${escapeHtml(user.acr)}; ${escapeHtml((user.amr ?? []).join(', '))})</p>`;
}

/** The home page of someone not signed in here, with an optional message (`alert`: an error). */
export function signedOutPage(message?: { text: string; alert?: boolean }): string {
  const shown = message
    ? `<p class="${message.alert ? 'alert' : 'notice'}" role="${message.alert ? 'alert' : 'status'}">${escapeHtml(message.text)}</p>`
    : '';
  return layout(
    'Welcome',
    `<h1>Welcome to ${escapeHtml(DEMO_SYSTEM_TITLE)}</h1>
${shown}
<p>This demo study system signs people in through the Portal Gateway and shows the study access the portal
grants them here.</p>
${signInLink}`,
  );
}

const list = (values: string[]): string => (values.length ? escapeHtml(values.join(', ')) : '<span>none</span>');

/** The home page of the signed-in person: who they are and their study access in this system. */
export function signedInPage(user: SignedIn, notice?: string): string {
  const rows = user.studyAccess
    .map(
      (a) =>
        `<tr><th scope="row">${escapeHtml(a.studyRole)}</th><td>${list(a.aoCodes)}</td><td>${list(a.laoCodes)}</td><td>${list(a.studies)}</td></tr>`,
    )
    .join('\n');
  const table = user.studyAccess.length
    ? `<div class="table-wrap"><table>
<caption>Your study access in this system</caption>
<thead><tr><th scope="col">Study role</th><th scope="col">AO codes</th><th scope="col">LAO codes</th><th scope="col">Studies</th></tr></thead>
<tbody>
${rows}
</tbody>
</table></div>`
    : '<p>The portal grants you no study access in this system.</p>';
  return layout(
    'Your studies',
    `<h1>Your studies</h1>
${notice ? `<p class="notice" role="status">${escapeHtml(notice)}</p>` : ''}
<p>Signed in as ${escapeHtml(user.name)} (${escapeHtml(user.email)})</p>
${signInLevel(user)}
${table}
<nav aria-label="Session">
<a class="button" href="/refresh">Refresh my access</a>
<a class="button" href="/logout">Sign out</a>
</nav>`,
  );
}

/** After the provider refused a refresh: the access is over; signing in again asks the portal. */
export function accessEndedPage(): string {
  return layout(
    'Access ended',
    `<h1>Access ended</h1>
<p class="alert" role="alert">Your access to this system has ended.</p>
<p>The Portal Gateway no longer lets you into this system. Signing in again shows you why and how to ask for
access.</p>
${signInLink}`,
  );
}

/** A failure page (no details from inside: the message is written for people). */
export function errorPage(heading: string, text: string): string {
  return layout(
    heading,
    `<h1>${escapeHtml(heading)}</h1>
<p class="alert" role="alert">${escapeHtml(text)}</p>
<p><a href="/">Back to the start page</a></p>`,
  );
}
