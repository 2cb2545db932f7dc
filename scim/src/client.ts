/**
 * A SCIM 2.0 client (RFC 7644) for the calls provisioning makes: the service provider configuration, users by
 * `externalId`, create, replace (PUT), modify (PATCH), delete, and paged listing. Every call has a deadline
 * (`timeoutMs`); a failure is a `ScimError` carrying the HTTP status (0: no answer) and the target's
 * `Retry-After` in ms when it sent one (RFC 7644 §3.12, RFC 9110 §10.2.3). The bearer token is sent, never
 * logged or put into an error.
 */
import { z } from 'zod';

/** A target's answer outside 2xx, or no answer (`status` 0: refused, reset, timed out). */
export class ScimError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly retryAfterMs: number | null = null,
    readonly scimType: string | null = null,
  ) {
    super(message);
    this.name = 'ScimError';
  }

  /** Worth retrying: no answer, 5xx, 429 (RFC 6585) or 408. */
  get retryable(): boolean {
    return this.status === 0 || this.status >= 500 || this.status === 429 || this.status === 408;
  }
}

/** A SCIM resource as the target answered it (only what the client reads is typed). */
export interface ScimResource {
  id: string;
  externalId?: string;
  userName?: string;
  [attribute: string]: unknown;
}

const ListSchema = z.object({
  totalResults: z.number().int().nonnegative(),
  startIndex: z.number().int().optional(),
  itemsPerPage: z.number().int().optional(),
  Resources: z.array(z.looseObject({ id: z.string() })).optional(),
});

const ErrorSchema = z.looseObject({ detail: z.string().optional(), scimType: z.string().optional() });

/** The parts of /ServiceProviderConfig provisioning reads (RFC 7643 §5). */
export const ServiceProviderConfigSchema = z.looseObject({
  patch: z.looseObject({ supported: z.boolean() }).optional(),
  filter: z.looseObject({ supported: z.boolean(), maxResults: z.number().optional() }).optional(),
});
export type ServiceProviderConfig = z.infer<typeof ServiceProviderConfigSchema>;

export interface ScimClientOptions {
  /** The SCIM base URL (its /Users below it); a trailing slash is ignored. */
  baseUrl: string;
  token: string | null;
  /** Each call's deadline, in ms (default 30 s). */
  timeoutMs?: number;
}

/** `Retry-After` as ms: delay-seconds or an HTTP date (RFC 9110 §10.2.3); null when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** SCIM filter string literal (RFC 7644 §3.4.2.2: JSON string rules). */
const literal = (value: string) => JSON.stringify(value);

export class ScimClient {
  private readonly base: string;
  private readonly timeoutMs: number;

  constructor(private readonly opts: ScimClientOptions) {
    this.base = opts.baseUrl.replace(/\/+$/, '');
    this.timeoutMs = opts.timeoutMs ?? 30_000;
  }

  private async call(method: string, path: string, body?: unknown): Promise<unknown> {
    const headers: Record<string, string> = { accept: 'application/scim+json, application/json' };
    if (this.opts.token) headers.authorization = `Bearer ${this.opts.token}`;
    if (body !== undefined) headers['content-type'] = 'application/scim+json';
    let res: Response;
    try {
      res = await fetch(`${this.base}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: 'error',
      });
    } catch (err) {
      const cause = (err as Error & { cause?: Error }).cause?.message ?? (err as Error).message;
      throw new ScimError(`${method} ${path}: no answer (${cause})`, 0);
    }
    const text = await res.text().catch(() => '');
    if (!res.ok) {
      let detail = text.slice(0, 300);
      let scimType: string | null = null;
      try {
        const parsed = ErrorSchema.parse(JSON.parse(text));
        detail = parsed.detail ?? detail;
        scimType = parsed.scimType ?? null;
      } catch {
        // Not a SCIM error body: its first characters say enough.
      }
      throw new ScimError(
        `${method} ${path}: ${res.status}${detail ? ` ${detail}` : ''}`,
        res.status,
        retryAfterMs(res.headers.get('retry-after')),
        scimType,
      );
    }
    if (!text) return null;
    try {
      return JSON.parse(text);
    } catch {
      throw new ScimError(`${method} ${path}: ${res.status} answer is not JSON`, 502);
    }
  }

  /** GET /ServiceProviderConfig. */
  async serviceProviderConfig(): Promise<ServiceProviderConfig> {
    const parsed = ServiceProviderConfigSchema.safeParse(await this.call('GET', '/ServiceProviderConfig'));
    if (!parsed.success) throw new ScimError('GET /ServiceProviderConfig: not a service provider configuration', 502);
    return parsed.data;
  }

  /** The user whose externalId is `externalId`, or null. @throws ScimError when the target holds several. */
  async findByExternalId(externalId: string): Promise<ScimResource | null> {
    const filter = encodeURIComponent(`externalId eq ${literal(externalId)}`);
    const list = this.list(await this.call('GET', `/Users?filter=${filter}`));
    const found = (list.Resources ?? []).filter((r) => r.externalId === externalId) as ScimResource[];
    if (found.length > 1) throw new ScimError(`${found.length} accounts have externalId ${externalId}`, 409);
    return found[0] ?? null;
  }

  /** POST /Users. @returns the created user. */
  async create(resource: Record<string, unknown>): Promise<ScimResource> {
    return this.resource(await this.call('POST', '/Users', resource));
  }

  /** PUT /Users/{id}. */
  async replace(id: string, resource: Record<string, unknown>): Promise<void> {
    await this.call('PUT', `/Users/${encodeURIComponent(id)}`, resource);
  }

  /** PATCH /Users/{id} with `operations` (RFC 7644 §3.5.2). */
  async patch(id: string, operations: Array<Record<string, unknown>>): Promise<void> {
    await this.call('PATCH', `/Users/${encodeURIComponent(id)}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: operations,
    });
  }

  /** DELETE /Users/{id}; one already gone is fine. */
  async delete(id: string): Promise<void> {
    try {
      await this.call('DELETE', `/Users/${encodeURIComponent(id)}`);
    } catch (err) {
      if (!(err instanceof ScimError && err.status === 404)) throw err;
    }
  }

  /**
   * One page of /Users from `startIndex` (1-based), at most `count`. @returns the users and the total the
   * target reports.
   */
  async listUsers(startIndex: number, count: number): Promise<{ users: ScimResource[]; total: number }> {
    const list = this.list(await this.call('GET', `/Users?startIndex=${startIndex}&count=${count}`));
    return { users: (list.Resources ?? []) as ScimResource[], total: list.totalResults };
  }

  private list(body: unknown) {
    const parsed = ListSchema.safeParse(body);
    if (!parsed.success) throw new ScimError('the target answered a list that is not a SCIM ListResponse', 502);
    return parsed.data;
  }

  private resource(body: unknown): ScimResource {
    const parsed = z.looseObject({ id: z.string() }).safeParse(body);
    if (!parsed.success) throw new ScimError('the target answered a resource without an id', 502);
    return parsed.data as ScimResource;
  }
}
