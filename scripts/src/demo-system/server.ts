/**
 * The demo system's HTTP server (node:http): its routes, GET only.
 * - GET /login: third-party initiated login (OpenID Connect Core 1.0 §4, the portal's 'My applications' link
 *   with `iss`) or the page's own link: starts the code flow and sends the browser to the provider.
 * - GET /callback: the provider's answer: code exchange, ID token, userinfo; then home.
 * - GET /: who is signed in here and their study access, or the way to sign in.
 * - GET /refresh: a refresh at the provider; refused → 'Your access to this system has ended.'
 * - GET /logout: ends the session here and at the provider (RP-initiated logout).
 * - GET /health: 200 for the supervisor.
 * A request on another host name (e.g. localhost) is sent to the same path on 127.0.0.1, where the cookies and
 * the registered redirect URIs are.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { type DemoSystemConfig, PORTAL_MFA_ACR, PORTAL_PHR_ACR } from './config';
import { accessEndedPage, errorPage, signedInPage, signedOutPage } from './pages';
import { AccessEndedError, type RelyingParty } from './relying-party';
import type { SessionStore } from './sessions';

type Log = (line: string) => void;

/** The `level` a sign-in link may name, and the portal's acr value it asks for. */
const LEVELS = new Map([
  ['mfa', PORTAL_MFA_ACR],
  ['phr', PORTAL_PHR_ACR],
]);

const HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

const send = (res: ServerResponse, status: number, html: string): void => {
  res.writeHead(status, HEADERS).end(html);
};
const redirect = (res: ServerResponse, location: string): void => {
  res.writeHead(303, { location, 'cache-control': 'no-store' }).end();
};

/** Creates the server (not listening yet). */
export function createDemoServer(cfg: DemoSystemConfig, rp: RelyingParty, sessions: SessionStore, log: Log) {
  const unreachable = (res: ServerResponse, err: unknown) => {
    log(`the Portal Gateway could not be reached: ${(err as Error).message}`);
    send(res, 502, errorPage('Sign-in unavailable', 'The Portal Gateway cannot be reached just now. Try again later.'));
  };

  const routes: Record<string, (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void>> = {
    '/': async (req, res) => {
      const user = sessions.find(req)?.user;
      send(res, 200, user ? signedInPage(user) : signedOutPage());
    },

    '/login': async (req, res, url) => {
      const iss = url.searchParams.get('iss');
      if (iss !== null && !rp.trusts(iss)) {
        send(res, 400, errorPage('Unknown portal', 'This system does not sign people in through that portal.'));
        return;
      }
      let started;
      try {
        // '?level=mfa' / '?level=phr': the demo's own links asking the portal for the multi-factor level (issue
        // 37) or the phishing-resistant one (a passkey).
        const acr = LEVELS.get(url.searchParams.get('level') ?? '');
        started = await rp.startLogin(url.searchParams.get('login_hint') ?? undefined, acr);
      } catch (err) {
        unreachable(res, err);
        return;
      }
      const session = sessions.open(req, res);
      session.pending = started.pending;
      redirect(res, started.url.href);
    },

    '/callback': async (req, res, url) => {
      const session = sessions.find(req);
      const pending = session?.pending;
      if (!session || !pending) {
        send(res, 400, signedOutPage({ text: 'That sign-in has expired. Please sign in again.', alert: true }));
        return;
      }
      session.pending = undefined;
      try {
        session.user = await rp.finishLogin(url, pending);
      } catch (err) {
        log(`sign-in failed: ${(err as Error).message}`);
        send(res, 400, signedOutPage({ text: 'The sign-in could not be completed. Please try again.', alert: true }));
        return;
      }
      log(`signed in ${session.user.email} (${session.user.studyAccess.length} role block(s))`);
      redirect(res, '/');
    },

    '/refresh': async (req, res) => {
      const session = sessions.find(req);
      if (!session?.user) {
        redirect(res, '/');
        return;
      }
      try {
        session.user = await rp.refresh(session.user);
      } catch (err) {
        if (!(err instanceof AccessEndedError)) {
          unreachable(res, err);
          return;
        }
        log(`refresh refused for ${session.user.email}: ${err.message}`);
        sessions.close(req, res);
        send(res, 200, accessEndedPage());
        return;
      }
      send(res, 200, signedInPage(session.user, 'Your access was refreshed from the Portal Gateway.'));
    },

    '/logout': async (req, res) => {
      const idToken = sessions.find(req)?.user?.idToken;
      sessions.close(req, res);
      try {
        redirect(res, (await rp.logoutUrl(idToken)).href);
      } catch {
        redirect(res, '/');
      }
    },

    '/health': async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    },
  };

  return http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', cfg.baseUrl);
    const route = routes[url.pathname];
    if (url.pathname !== '/health' && req.headers.host !== new URL(cfg.baseUrl).host) {
      redirect(res, new URL(`${url.pathname}${url.search}`, cfg.baseUrl).href);
      return;
    }
    if (!route) {
      send(res, 404, errorPage('Page not found', 'There is no such page in this system.'));
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    route(req, res, url).catch((err: unknown) => {
      log(`${url.pathname} failed: ${(err as Error).stack ?? String(err)}`);
      if (!res.headersSent) send(res, 500, errorPage('Something went wrong', 'Please try again.'));
    });
  });
}
