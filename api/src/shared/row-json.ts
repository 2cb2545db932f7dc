/**
 * One list row's wire JSON written by PostgreSQL, for the load-all stream (000 §9; shared/stream-page.ts): the
 * text JSON.stringify gives the list's view object (same keys in the same order, same escapes), built in SQL so
 * that the API passes PostgreSQL's bytes on instead of building a JS object per row.
 *
 * Why the texts are the same: `to_json(text)` escapes exactly what JSON.stringify escapes (quote, backslash,
 * \b \f \n \r \t, the other characters below U+0020 as lower-case \u00xx; everything else as it is, and a
 * PostgreSQL text holds neither NUL nor lone surrogates); integers and booleans print alike; `timestamp(3)`
 * columns (UTC, as Prisma stores them) print as Date.prototype.toISOString does (`isoJson`). json_build_object
 * and jsonb print spaces JSON.stringify does not, so objects and arrays are concatenated here (`objectJson`).
 *
 * What SQL cannot vouch for (a role block not already in the contract's form, a workflow id a link must
 * percent-encode) is left to JavaScript, row by row: such a row is written as `SLOW` followed by its JSON with
 * the raw values, and `RowJson.finish` completes it with the view's own code. Rows written by the portal
 * itself never take that way.
 */
import pg from 'pg';
import {
  AccessControlSchema,
  ID_MAX,
  REQUEST_STATUSES,
  type RequestStatus,
  allowedNextStatuses,
} from '@portal/contract';
import { type TemporalUi, workflowUrl } from './views';

/** The first character of a row PostgreSQL left to JavaScript (a JSON object starts with `{`). */
export const SLOW = '!';

/**
 * How PostgreSQL writes one list's rows: `sql`, an expression over the list's row statement aliased `t`
 * (a text: the row's JSON, or SLOW and a JSON to finish); `finish`, the view's code for what SQL left raw
 * (it throws what the view throws, e.g. a ZodError for an access-modification request's bad role blocks).
 */
export interface RowJson {
  sql: string;
  finish(row: Record<string, unknown>): Record<string, unknown>;
}

/** The wire object of one line PostgreSQL wrote with `json.sql` (tests; the stream passes fast lines on as bytes). */
export const wireRow = (json: RowJson, line: string): Record<string, unknown> =>
  line.startsWith(SLOW)
    ? json.finish(JSON.parse(line.slice(SLOW.length)) as Record<string, unknown>)
    : (JSON.parse(line) as Record<string, unknown>);

/** A JSON text as an SQL literal. */
const literal = (json: string) => pg.escapeLiteral(json);

/** Any value of expression `e` as JSON text (`null` for NULL): texts, integers, booleans, arrays of them. */
export const valueJson = (e: string) => `coalesce(to_json(${e})::text, 'null')`;

/** A `timestamp` column (UTC) as the JSON of its Date's toISOString: `"2026-12-02T17:13:05.000Z"`. */
export const isoJson = (e: string) => `coalesce(to_json(to_char(${e}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text, 'null')`;

/** A JSON object of `fields` (key, JSON text expression) in that order, as SQL text concatenation. */
export const objectJson = (fields: ReadonlyArray<readonly [string, string]>): string =>
  fields.map(([key, e], i) => `${literal(`${i ? ',' : '{'}${JSON.stringify(key)}:`)} || ${e}`).join(' || ') + ` || '}'`;

/** The statuses a reviewer may save a request in status `e` with (statuses.ts), as a JSON array literal per status. */
export const nextStatusesJson = (e: string) =>
  `(CASE ${e}::text ${REQUEST_STATUSES.map(
    (s: RequestStatus) => `WHEN ${literal(s)} THEN ${literal(JSON.stringify(allowedNextStatuses(s)))}`,
  ).join(' ')} END)`;

/** Characters encodeURIComponent leaves as they are. */
const URI_SAFE = `'^[A-Za-z0-9_.!~*''()-]*$'`;

/**
 * The workflow link of the view (views.ts workflowUrl) for workflow id `e`, as JSON text: null without a UI;
 * the link when encodeURIComponent leaves the id as it is; otherwise NULL (the row is finished in JavaScript).
 */
export function workflowUrlJson(temporal: TemporalUi, e: string): string {
  const prefix = workflowUrl(temporal.uiUrl, temporal.namespace, '');
  if (prefix === null) return `'null'`;
  return `(CASE WHEN ${e} ~ ${URI_SAFE} THEN to_json(${literal(prefix)} || ${e})::text END)`;
}

/** A text of jsonb `e` that the contract's trimmed text of at most `max` (min 1) leaves as it is. */
function plainText(e: string, max: number, trimmed: boolean): string {
  const t = `(${e} #>> '{}')`;
  // Bytes bound UTF-16 units from above: within `max` bytes the string is within `max` characters.
  const sized = `jsonb_typeof(${e}) = 'string' AND octet_length(${t}) BETWEEN 1 AND ${max}`;
  // Ends that no trim removes: visible ASCII or Latin letters.
  return trimmed ? `(${sized} AND ${t} ~ '^[!-~À-ɏ](.*[!-~À-ɏ])?$')` : `(${sized})`;
}

/** A jsonb number `e` that is an integer from `min` to ID_MAX written without fraction or exponent. */
const plainInt = (e: string, min: 0 | 1) =>
  `(jsonb_typeof(${e}) = 'number' AND (${e})::text ~ '^(0|[1-9][0-9]{0,9})$' AND (${e})::text::bigint BETWEEN ${min} AND ${ID_MAX})`;

/** A jsonb array `e` (absent: []) of at most `max` elements each passing `element` (over `x`). */
const plainArray = (e: string, max: number, element: (x: string) => string) =>
  `(${e} IS NULL OR (jsonb_typeof(${e}) = 'array' AND jsonb_array_length(${e}) <= ${max}
    AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(${e}) x WHERE NOT ${element('x')})))`;

/** A real calendar day YYYY-MM-DD, February 29 left to JavaScript. */
const plainDay = (e: string) =>
  `(jsonb_typeof(${e}) = 'string' AND (${e} #>> '{}') ~
    '^[0-9]{4}-(((0[1-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-8]))|((0[13-9]|1[0-2])-(29|30))|((0[13578]|1[02])-31))$')`;

const BLOCK_KEYS = [
  'questionNum',
  'roleName',
  'siteCodes',
  'laoIds',
  'studyNames',
  'systemAccessIds',
  'accessEndDate',
] as const;

/** One stored role block `b` (jsonb) that AccessControlSchema returns with the same values (its keys reordered). */
const plainBlock = (b: string) =>
  `(jsonb_typeof(${b}) = 'object'
    AND NOT EXISTS (SELECT 1 FROM jsonb_object_keys(${b}) k WHERE k <> ALL (ARRAY[${BLOCK_KEYS.map(literal).join(',')}]))
    AND (NOT ${b} ? 'questionNum' OR ${plainInt(`${b}->'questionNum'`, 0)})
    AND ${plainText(`${b}->'roleName'`, 128, true)}
    AND ${plainArray(`${b}->'siteCodes'`, 500, (x) => plainText(x, 32, false))}
    AND ${plainArray(`${b}->'laoIds'`, 500, (x) => plainText(x, 32, false))}
    AND ${plainArray(`${b}->'studyNames'`, 500, (x) => plainText(x, 128, false))}
    AND ${plainArray(`${b}->'systemAccessIds'`, 100, (x) => plainInt(x, 1))}
    AND (NOT ${b} ? 'accessEndDate' OR jsonb_typeof(${b}->'accessEndDate') = 'null' OR ${plainDay(`${b}->'accessEndDate'`)}))`;

/** A jsonb array of texts or integers `e` (absent: []) as JSON.stringify writes it. */
const arrayJson = (e: string) =>
  `coalesce((SELECT '[' || string_agg(CASE jsonb_typeof(x) WHEN 'string' THEN to_json(x #>> '{}')::text
    ELSE x::text END, ',' ORDER BY n) || ']' FROM jsonb_array_elements(${e}) WITH ORDINALITY AS a(x, n)), '[]')`;

/** One plain role block `b` as AccessControlSchema's output: the contract's key order, its defaults. */
const blockJson = (b: string) => {
  const parts = [
    `CASE WHEN ${b} ? 'questionNum' THEN '"questionNum":' || (${b}->'questionNum')::text || ',' ELSE '' END`,
    `'"roleName":' || to_json(${b} #>> '{roleName}')::text`,
    ...(['siteCodes', 'laoIds', 'studyNames', 'systemAccessIds'] as const).map(
      (k) => `',"${k}":' || ${arrayJson(`${b}->'${k}'`)}`,
    ),
    `CASE WHEN ${b} ? 'accessEndDate' THEN ',"accessEndDate":' || CASE jsonb_typeof(${b}->'accessEndDate')
      WHEN 'null' THEN 'null' ELSE to_json(${b} #>> '{accessEndDate}')::text END ELSE '' END`,
  ];
  return `'{' || ${parts.join(' || ')} || '}'`;
};

/**
 * Stored role blocks `e` (a jsonb column) as the views write them (AccessControlSchema's output): `json`,
 * the JSON text, NULL when not every block is plain; `raw`, the stored value, for JavaScript to parse then.
 */
export const accessControlsJson = (e: string): { json: string; raw: string } => ({
  json: `(CASE WHEN jsonb_typeof(${e}) = 'array'
      AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(${e}) b WHERE NOT ${plainBlock('b')})
    THEN coalesce((SELECT '[' || string_agg(${blockJson('b')}, ',' ORDER BY n) || ']'
      FROM jsonb_array_elements(${e}) WITH ORDINALITY AS a(b, n)), '[]') END)`,
  raw: `coalesce((${e})::text, 'null')`,
});

/**
 * A row of `fields` (key, JSON text expression; NULL where SQL cannot vouch for the value); when one of them
 * is NULL, SLOW and the row with `raw` (key, JSON text expression of the stored value) in place of those
 * fields, for `RowJson.finish`.
 */
export function rowSql(
  fields: ReadonlyArray<readonly [string, string]>,
  raw: Readonly<Record<string, string>> = {},
): string {
  if (!Object.keys(raw).length) return objectJson(fields);
  const slow = fields.map(([k, e]) => [k, raw[k] ?? e] as const);
  // A concatenation is NULL when one part is: the plain row, or else the row to finish.
  return `coalesce(${objectJson(fields)}, ${literal(SLOW)} || ${objectJson(slow)})`;
}

/** Role blocks as the access-modification view reads them: AccessControlSchema's output. @throws ZodError. */
export const parsedBlocks = (v: unknown) => AccessControlSchema.array().parse(v);
