/**
 * A small stand-in for a Tableau Server that speaks the trusted-ticket protocol (issue 11 Dashboard: no
 * Tableau server runs here). `POST /trusted` with a form-encoded `username` and `target_site` answers a
 * ticket as plain text, or `-1` for a username it does not know (as Tableau does for an unlicensed user); a
 * ticket is redeemed once at `GET /trusted/{ticket}/t/{site}/views/{workbook}/{view}` (or `/views/...` for
 * the default site), which answers a tiny HTML page naming the view, and 401 for an unknown or used ticket.
 * Every ticket request is recorded, so a test sees what the API asked for.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TicketRequest {
  username: string;
  targetSite: string;
}

export interface TableauStandIn {
  url: string;
  requests: TicketRequest[];
  /** Tickets issued and not yet redeemed. */
  tickets: Map<string, TicketRequest>;
  close(): Promise<void>;
}

const readBody = (req: http.IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });

/**
 * Starts the stand-in on 127.0.0.1 (a free port). `users` are the Tableau usernames it issues tickets for;
 * any other answers `-1`.
 */
export async function startTableauStandIn(users: readonly string[]): Promise<TableauStandIn> {
  const requests: TicketRequest[] = [];
  const tickets = new Map<string, TicketRequest>();
  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      if (req.method === 'POST' && url.pathname === '/trusted') {
        const form = new URLSearchParams(await readBody(req));
        const request = { username: form.get('username') ?? '', targetSite: form.get('target_site') ?? '' };
        requests.push(request);
        res.setHeader('content-type', 'text/plain');
        if (!users.includes(request.username)) return res.end('-1');
        const ticket = `${crypto.randomBytes(12).toString('base64url')}:${crypto.randomBytes(18).toString('base64url')}`;
        tickets.set(ticket, request);
        return res.end(ticket);
      }
      const view = /^\/trusted\/([^/]+)(?:\/t\/([^/]+))?\/views\/(.+)$/.exec(url.pathname);
      if (req.method === 'GET' && view) {
        const [, ticket = '', site = '', path = ''] = view;
        const issued = tickets.get(decodeURIComponent(ticket));
        if (!issued || issued.targetSite !== site) {
          res.statusCode = 401;
          return res.end('Unauthorized');
        }
        tickets.delete(decodeURIComponent(ticket));
        res.setHeader('content-type', 'text/html');
        return res.end(`<!doctype html><html lang="en"><title>${path}</title><h1>View ${path}</h1></html>`);
      }
      res.statusCode = 404;
      res.end('Not found');
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    tickets,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
