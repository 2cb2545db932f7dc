/**
 * Inputs of the hostile-input route walker (issue 13): fast-check arbitraries built from a route's declared
 * zod schemas (so a new route gets inputs without anyone writing them), then mutated the way an attacker
 * would: numbers out of PostgreSQL's range, wrong types, missing and extra keys, NUL, lone surrogates, 1 MB
 * strings, prototype keys, SQL and LDAP metacharacters.
 */
import fc from 'fast-check';
import type { z } from 'zod';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Values that broke, or could break, a route that trusted its input. */
export const HOSTILE_VALUES: Json[] = [
  2 ** 31,
  2 ** 31 - 1,
  2 ** 53,
  -1,
  0,
  1.5,
  1e308,
  true,
  false,
  null,
  [1],
  {},
  [],
  '',
  ' ',
  '1',
  'true',
  'x\u0000y',
  '\u0000',
  'a\uD800b',
  '\uDFFF',
  '😀\uDBFF',
  "' OR '1'='1",
  '1; DROP TABLE "PortalUser"; --',
  '*)(uid=*))(|(uid=*',
  'cn=admin,dc=portal,dc=test',
  '\\',
  '%00',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  '${jndi:ldap://127.0.0.1/x}',
];

/** A 1 MB string: bodies this large answer 413, never 5xx. */
export const ONE_MB = 'a'.repeat(1024 * 1024);

/**
 * Stands for a value nested 5,000 arrays deep (issue 21: a recursive walk of the body answered 500 on 32
 * routes). The case carries this marker and the payload text gets the nesting (`DEEP_JSON`): the value
 * itself would overflow the stack of the test's own JSON.stringify and of fast-check's printing.
 */
export const DEEP = '$deep';
export const DEEP_JSON = `${'['.repeat(5_000)}"x\\u0000"${']'.repeat(5_000)}`;

/** Path segments (already URL-encoded) an attacker would try in place of a parameter. */
export const HOSTILE_SEGMENTS = [
  '0',
  '-1',
  '2147483648',
  '99999999999999999999',
  '1e3',
  '1.5',
  '%00',
  '%ED%A0%80',
  'abc',
  "1'%20OR%20'1'%3D'1",
  '%2A%29%28uid%3D%2A',
  '%2e%2e%2f',
  'x'.repeat(200),
];

/** Overrides by object key: ids must come from the walker's pools (throwaway records on destructive routes). */
export type KeyOverrides = Record<string, fc.Arbitrary<Json>>;

const def = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Record<string, unknown> } })._zod.def;
const checksOf = (d: Record<string, unknown>) =>
  ((d.checks as Array<{ _zod: { def: Record<string, unknown> } }> | undefined) ?? []).map((c) => c._zod.def);

function stringArb(d: Record<string, unknown>): fc.Arbitrary<Json> {
  const checks = checksOf(d);
  const regex = checks.find((c) => c.format === 'regex')?.pattern as RegExp | undefined;
  if (regex) return fc.stringMatching(regex).filter((s) => s.length <= 64);
  const format = checks.find((c) => c.check === 'string_format')?.format;
  if (format === 'email') return fc.emailAddress();
  if (format === 'guid' || format === 'uuid') return fc.uuid();
  if (format === 'datetime') return fc.date({ noInvalidDate: true }).map((x) => x.toISOString());
  const min = Number(checks.find((c) => c.check === 'min_length')?.minimum ?? 0);
  const max = Number(checks.find((c) => c.check === 'max_length')?.maximum ?? 40);
  return fc.string({ minLength: min, maxLength: Math.max(min, Math.min(max, 40)) });
}

function numberArb(d: Record<string, unknown>): fc.Arbitrary<Json> {
  const checks = checksOf(d);
  const low = checks.find((c) => c.check === 'greater_than')?.value as number | undefined;
  const high = checks.find((c) => c.check === 'less_than')?.value as number | undefined;
  return fc.integer({ min: low ?? 0, max: Math.min(high ?? 60, (low ?? 0) + 60) });
}

/**
 * An arbitrary of JSON values shaped like what `schema` accepts (its input side): objects with their keys,
 * strings matching their patterns, numbers near the seeded ids. `overrides` replaces values by key.
 */
export function arbitraryOf(schema: z.ZodType, overrides: KeyOverrides = {}): fc.Arbitrary<Json> {
  const d = def(schema);
  const inner = (key: string) => arbitraryOf(d[key] as z.ZodType, overrides);
  switch (d.type) {
    case 'object': {
      const shape = d.shape as Record<string, z.ZodType>;
      const entries = Object.fromEntries(
        Object.entries(shape).map(([k, v]) => [k, overrides[k] ?? arbitraryOf(v, overrides)]),
      );
      const optional = Object.keys(shape).filter((k) => ['optional', 'default'].includes(String(def(shape[k]!).type)));
      return fc
        .record(entries, { requiredKeys: Object.keys(shape).filter((k) => !optional.includes(k)) })
        .map((o) => o as Json);
    }
    case 'string':
      return stringArb(d);
    case 'number':
      return numberArb(d);
    case 'boolean':
      return fc.boolean();
    case 'enum':
      return fc.constantFrom(...(Object.values(d.entries as Record<string, Json>) as Json[]));
    case 'literal':
      return fc.constantFrom(...(d.values as Json[]));
    case 'array':
      return fc.array(inner('element'), { maxLength: 3 });
    case 'optional':
    case 'default':
    case 'nullable':
    case 'readonly':
    case 'catch':
      return inner('innerType');
    case 'pipe':
      // A preprocess is a pipe from a transform: its output schema says what to send.
      return def(d.in as z.ZodType).type === 'transform' ? inner('out') : inner('in');
    case 'record':
      return fc.dictionary(fc.string({ maxLength: 6 }), inner('valueType'), { maxKeys: 3 }).map((o) => o as Json);
    case 'union':
      return fc.oneof(...(d.options as z.ZodType[]).map((o) => arbitraryOf(o, overrides)));
    default:
      return fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>;
  }
}

/** Every path to a value inside `value` (the root is `[]`). */
function pathsOf(value: Json, at: Array<string | number> = []): Array<Array<string | number>> {
  const here = [at];
  if (Array.isArray(value)) return [...here, ...value.flatMap((v, i) => pathsOf(v, [...at, i]))];
  if (value && typeof value === 'object') {
    return [...here, ...Object.entries(value).flatMap(([k, v]) => pathsOf(v, [...at, k]))];
  }
  return here;
}

export type Mutation =
  | { kind: 'none' }
  | { kind: 'replace'; pick: number; value: Json }
  | { kind: 'drop'; pick: number }
  | { kind: 'extra'; key: string; value: Json };

/** One mutation, or none (a well-formed input must not answer 5xx either). */
export const mutationArb = (allowHuge: boolean): fc.Arbitrary<Mutation> =>
  fc.oneof(
    { arbitrary: fc.constant<Mutation>({ kind: 'none' }), weight: 2 },
    {
      arbitrary: fc.record({
        kind: fc.constant('replace' as const),
        pick: fc.nat(),
        value: allowHuge ? fc.constantFrom(...HOSTILE_VALUES, ONE_MB, DEEP) : fc.constantFrom(...HOSTILE_VALUES),
      }),
      weight: 4,
    },
    { arbitrary: fc.record({ kind: fc.constant('drop' as const), pick: fc.nat() }), weight: 1 },
    {
      arbitrary: fc.record({
        kind: fc.constant('extra' as const),
        key: fc.constantFrom('__proto__', 'constructor', 'prototype', 'extra', 'x\u0000', 'id'),
        value: fc.constantFrom<Json>({ isAdmin: true }, 1, 'x', null, { polluted: true }),
      }),
      weight: 1,
    },
  );

/** Applies `m` to a copy of `value` (own `__proto__` keys are set as data, as a JSON parser would). */
export function mutate(value: Json, m: Mutation): Json {
  if (m.kind === 'none') return value;
  const copy = JSON.parse(JSON.stringify(value ?? null)) as Json;
  if (m.kind === 'extra') {
    const target = copy && typeof copy === 'object' && !Array.isArray(copy) ? copy : {};
    Object.defineProperty(target, m.key, { value: m.value, enumerable: true, configurable: true, writable: true });
    return target;
  }
  const paths = pathsOf(copy);
  const path = paths[m.pick % paths.length]!;
  if (path.length === 0) return m.kind === 'replace' ? m.value : null;
  const parent = path.slice(0, -1).reduce<Json>((node, k) => (node as Record<string, Json>)[k]!, copy);
  const last = path[path.length - 1]!;
  if (m.kind === 'replace') (parent as Record<string | number, Json>)[last] = m.value;
  else if (Array.isArray(parent)) parent.splice(Number(last), 1);
  else delete (parent as Record<string, Json>)[last];
  return copy;
}

export type { Json };
