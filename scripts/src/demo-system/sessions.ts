/**
 * The demo system's own sessions: kept in memory (a restart of the demo signs everyone out of it, not out of
 * the portal), keyed by a random id in an HttpOnly, SameSite=Lax cookie, so the provider's redirect back to
 * /callback (a top-level navigation from the portal's site) still carries it. A session holds either a
 * sign-in under way (state, nonce, PKCE verifier) or the signed-in person with their tokens.
 */
import crypto from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

const COOKIE = 'edc_demo_sid';
/** Idle sessions are forgotten after this long. */
const IDLE_MS = 8 * 3600_000;

/** One role block of the `study_access` claim. */
export interface StudyAccess {
  studyRole: string;
  aoCodes: string[];
  laoCodes: string[];
  studies: string[];
}

/** A sign-in under way: what the callback must see again. */
export interface PendingLogin {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** The person signed in here, with what the provider told this system. */
export interface SignedIn {
  sub: string;
  name: string;
  email: string;
  studyAccess: StudyAccess[];
  /** How the portal says the person signed in: the ID token's `acr` and `amr` (issue 37). */
  acr?: string;
  amr?: string[];
  idToken?: string;
  refreshToken?: string;
  accessToken: string;
}

export interface DemoSession {
  id: string;
  seenAt: number;
  pending?: PendingLogin;
  user?: SignedIn;
}

/** In-memory sessions of the demo system. */
export class SessionStore {
  private readonly sessions = new Map<string, DemoSession>();

  /** The request's session, if its cookie names a live one. */
  find(req: IncomingMessage): DemoSession | undefined {
    const id = readCookie(req.headers.cookie, COOKIE);
    const session = id ? this.sessions.get(id) : undefined;
    if (!session) return undefined;
    if (Date.now() - session.seenAt > IDLE_MS) {
      this.sessions.delete(session.id);
      return undefined;
    }
    session.seenAt = Date.now();
    return session;
  }

  /** The request's session, or a new one whose cookie is set on `res`. */
  open(req: IncomingMessage, res: ServerResponse): DemoSession {
    const found = this.find(req);
    if (found) return found;
    this.prune();
    const session: DemoSession = { id: crypto.randomBytes(32).toString('base64url'), seenAt: Date.now() };
    this.sessions.set(session.id, session);
    res.setHeader('set-cookie', `${COOKIE}=${session.id}; Path=/; HttpOnly; SameSite=Lax`);
    return session;
  }

  /** Forgets the request's session and clears its cookie. */
  close(req: IncomingMessage, res: ServerResponse): void {
    const found = this.find(req);
    if (found) this.sessions.delete(found.id);
    res.setHeader('set-cookie', `${COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`);
  }

  private prune(): void {
    const now = Date.now();
    for (const [id, s] of this.sessions) if (now - s.seenAt > IDLE_MS) this.sessions.delete(id);
  }
}

/** The value of cookie `name` in a Cookie header. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return undefined;
}
