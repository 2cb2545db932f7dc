import { describe, expect, it } from 'vitest';
import { zodToFieldErrors } from './errors';
import { translateFieldErrors } from './messages';
import { CreateAccessModRequestBodySchema, PageQuerySchema, ReviewAccessChangeBodySchema } from './schemas';
import { SystemBodySchema } from './configuration';
import { findUnrecognizedCharacter, findUnrecognizedIn, textSchema } from './text';

const errorsOf = (schema: { safeParse(v: unknown): { success: boolean; error?: unknown } }, value: unknown) => {
  const r = schema.safeParse(value);
  return r.success ? null : zodToFieldErrors(r.error as never);
};

describe('storable text (000 §5 encoding)', () => {
  it('finds NUL and lone surrogates with their 1-based position in characters', () => {
    expect(findUnrecognizedCharacter('plain text')).toBeNull();
    expect(findUnrecognizedCharacter('emoji 😀 ok')).toBeNull();
    expect(findUnrecognizedCharacter('ab\0c')).toEqual({ codePoint: 'U+0000', position: 3 });
    expect(findUnrecognizedCharacter('😀x\uD800')).toEqual({ codePoint: 'U+D800', position: 3 });
    expect(findUnrecognizedCharacter('\uDC00')).toEqual({ codePoint: 'U+DC00', position: 1 });
    expect(findUnrecognizedCharacter('a\uDBFF\uDBFF\uDC00')).toEqual({ codePoint: 'U+DBFF', position: 2 });
  });

  it('refuses them in every stored string with the encoding reason, counted before trimming', () => {
    expect(errorsOf(textSchema(10), '  x\0')).toEqual({ _: ['encoding:U+0000:4'] });
    expect(errorsOf(SystemBodySchema, { systemName: 'S\uD83D', description: 'ok' })).toEqual({
      systemName: ['encoding:U+D83D:2'],
    });
    expect(errorsOf(PageQuerySchema, { filter: 'a\0' })).toEqual({ filter: ['encoding:U+0000:2'] });
    const body = { portalUserId: 1, requestType: 'NEW', accessControls: [{ roleName: 'R', studyNames: ['\0'] }] };
    expect(errorsOf(CreateAccessModRequestBodySchema, body)).toEqual({
      'accessControls[0].studyNames[0]': ['encoding:U+0000:1'],
    });
  });

  it('translates the reason with the character and its position', () => {
    expect(translateFieldErrors('System Name', ['encoding:U+0000:4'])).toBe(
      'System Name contains unrecognized character U+0000 at position 4',
    );
    expect(translateFieldErrors('Comments', ['encoding'])).toBe('Comments contains unrecognized character');
  });
});

describe('strict types (issue 13)', () => {
  const review = (request: Record<string, unknown>) =>
    errorsOf(ReviewAccessChangeBodySchema, { userAccessModificationRequest: request });

  it('reads a wrong type as invalid, a missing field as required and 0 or a negative number as invalid', () => {
    expect(review({ id: true, versionno: 0, requestStatus: 'APPROVED' })).toEqual({
      'userAccessModificationRequest.id': ['invalid'],
    });
    expect(review({ id: [1], versionno: -1, requestStatus: 'APPROVED' })).toEqual({
      'userAccessModificationRequest.id': ['invalid'],
      'userAccessModificationRequest.versionno': ['invalid'],
    });
    expect(review({ id: 0, versionno: 2 ** 31, requestStatus: 'APPROVED' })).toEqual({
      'userAccessModificationRequest.id': ['invalid'],
      'userAccessModificationRequest.versionno': ['invalid'],
    });
    expect(review({ requestStatus: 'APPROVED' })).toEqual({
      'userAccessModificationRequest.id': ['required'],
      'userAccessModificationRequest.versionno': ['required'],
    });
  });

  it('parses page and size from their digits only, within their bounds', () => {
    expect(PageQuerySchema.parse({})).toMatchObject({ page: 1, size: 25 });
    expect(PageQuerySchema.parse({ page: '3', size: '50' })).toMatchObject({ page: 3, size: 50 });
    for (const page of ['0', '1e3', 'true', '-1', '99999999999', '1000001', ['1', '2']]) {
      expect(errorsOf(PageQuerySchema, { page }), String(page)).toEqual({ page: ['invalid'] });
    }
    expect(errorsOf(PageQuerySchema, { size: '1001' })).toEqual({ size: ['invalid'] });
  });
});

describe('findUnrecognizedIn', () => {
  it('reports strings and keys anywhere in a value with their paths', () => {
    expect(findUnrecognizedIn({ a: ['ok', 'x\0'], 'k\uD800': 1, n: { deep: '\uDC00' }, fine: 3 })).toEqual([
      { path: ['a', 1], reason: 'encoding:U+0000:2' },
      { path: ['k\uD800'], reason: 'encoding:U+D800:2' },
      { path: ['n', 'deep'], reason: 'encoding:U+DC00:1' },
    ]);
    expect(findUnrecognizedIn({ a: 'ok', b: [1, true, null] })).toEqual([]);
  });

  // Issue 21 case 10: the walk was recursive, and a body nested 5,000 levels deep threw RangeError (500).
  it('walks a value nested 100,000 levels deep without overflowing the stack', () => {
    let deep: unknown = 'x\0';
    for (let i = 0; i < 100_000; i++) deep = i % 2 ? [deep] : { k: deep };
    const found = findUnrecognizedIn(deep);
    expect(found).toHaveLength(1);
    expect(found[0]!.path).toHaveLength(100_000);
    expect(found[0]!.reason).toBe('encoding:U+0000:2');
  });
});
