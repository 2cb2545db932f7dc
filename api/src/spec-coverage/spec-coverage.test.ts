/**
 * Spec coverage as a test (issue 23): every call of 000 §7 and 001 §7 has a route in the OpenAPI document the
 * API serves (method and path; the spec's trailing slashes and parameter names ignored), and every message of
 * 000 §8 and 001 §8, every validation reason of 000 §5 and the resource-category rule of 001 §5 is in the
 * contract package word for word, except the listed exceptions, so "nothing unbuilt" is checked, not claimed.
 * A message's `{...}` part (a name, a count, an address) matches any text or template expression there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as contract from '@portal/contract';
import { type OfflineServer, buildOfflineServer } from '../plugins/offline-server';
import { OPENAPI_PATH } from '../plugins/openapi';
import {
  CALLS_000,
  CALLS_001,
  MESSAGES_000,
  MESSAGES_001,
  REASONS_SPEC,
  RESOURCE_CATEGORY_MESSAGE,
} from './spec-lists';

/**
 * Calls without a route, each with why. (None: single sign-on's calls are the provider's under /oidc, outside
 * the spec's lists.)
 */
const CALL_EXCEPTIONS: Record<string, string> = {};

/** Messages not in the contract, each with why. */
const MESSAGE_EXCEPTIONS: Record<string, string> = {};

/** Validation reasons not in the contract yet, each with why. */
const REASON_EXCEPTIONS: Record<string, string> = {};

let server: OfflineServer | undefined;
let routes: string[][];

/** `METHOD /path/{}` with parameters unnamed and no trailing slash, the form both sides are compared in. */
const normalise = (method: string, path: string) =>
  `${method.toUpperCase()} ${path.replace(/\{[^}]+\}/g, '{}').replace(/\/+$/, '')}`;

beforeAll(async () => {
  server = await buildOfflineServer();
  const res = await server.app.inject({ method: 'GET', url: OPENAPI_PATH });
  expect(res.statusCode).toBe(200);
  const doc = res.json<{ paths: Record<string, Record<string, unknown>> }>();
  routes = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.keys(ops).map((method) => normalise(method, path).split('/')),
  );
}, 60_000);

afterAll(async () => {
  await server?.close();
});

/** Every string the contract exports (deeply), and the source of every function (its template literals). */
function contractTexts(): string[] {
  const texts: string[] = [];
  const seen = new Set<unknown>();
  const walk = (value: unknown) => {
    if (typeof value === 'string') texts.push(value);
    else if (typeof value === 'function') texts.push(value.toString());
    else if (value && typeof value === 'object' && !seen.has(value)) {
      seen.add(value);
      for (const v of Object.values(value)) walk(v);
    }
  };
  walk(contract);
  return texts;
}

/** A spec message as a pattern: its `{...}` parts match any text, the rest word for word. */
const patternOf = (message: string) =>
  new RegExp(
    message
      .split(/\{[^}]*\}/)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('[\\s\\S]*?'),
  );

/**
 * True when a route serves `call`: the same segments, where a route's parameter also serves the spec's literal
 * (`user_registration_action/{action}` serves `.../approve`).
 */
const routed = (call: string) => {
  const [method, path] = call.split(' ') as [string, string];
  const want = normalise(method, path).split('/');
  return routes.some((r) => r.length === want.length && r.every((seg, i) => seg === want[i] || seg === '{}'));
};

describe('spec coverage', () => {
  it('has a route for every call of 000 §7 and 001 §7', () => {
    const missing = [...new Set([...CALLS_000, ...CALLS_001])].filter(
      (call) => !routed(call) && !(call in CALL_EXCEPTIONS),
    );
    expect(missing).toEqual([]);
  });

  it('has every message of 000 §8 and 001 §8 in the contract, word for word', () => {
    const texts = contractTexts();
    const missing = [...new Set([...MESSAGES_000, ...MESSAGES_001])].filter(
      (m) => !(m in MESSAGE_EXCEPTIONS) && !texts.some((t) => patternOf(m).test(t)),
    );
    expect(missing).toEqual([]);
  });

  it('has every validation reason of 000 §5 and the resource-category rule of 001 §5', () => {
    const wrong = Object.entries(REASONS_SPEC).filter(
      ([key, text]) => !(key in REASON_EXCEPTIONS) && contract.REASONS[key] !== text,
    );
    expect(wrong).toEqual([]);
    expect(contractTexts()).toContain(RESOURCE_CATEGORY_MESSAGE);
  });

  it('lists only exceptions that are still needed', () => {
    const texts = contractTexts();
    const stale = [
      ...Object.keys(CALL_EXCEPTIONS).filter(routed),
      ...Object.keys(MESSAGE_EXCEPTIONS).filter((m) => texts.some((t) => patternOf(m).test(t))),
      ...Object.keys(REASON_EXCEPTIONS).filter((key) => contract.REASONS[key] === REASONS_SPEC[key]),
    ];
    expect(stale).toEqual([]);
  });
});
