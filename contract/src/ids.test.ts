import { describe, expect, it } from 'vitest';
import { BodyIdSchema, ID_MAX, IdParamsSchema } from './ids';
import { zodToFieldErrors } from './errors';

const pathErrors = (params: unknown) => {
  const r = IdParamsSchema.safeParse(params);
  return r.success ? r.data : zodToFieldErrors(r.error);
};
const bodyErrors = (id: unknown) => {
  const r = BodyIdSchema.safeParse(id);
  return r.success ? r.data : zodToFieldErrors(r.error);
};

describe('the id rule', () => {
  it('parses path ids from their digits, within 1..2147483647', () => {
    expect(pathErrors({ id: '1' })).toEqual({ id: 1 });
    expect(pathErrors({ id: String(ID_MAX) })).toEqual({ id: ID_MAX });
    for (const bad of ['0', '2147483648', '-1', '1.5', '1e3', 'abc', ' 1', '', '99999999999']) {
      expect(pathErrors({ id: bad }), bad).toEqual({ id: ['invalid'] });
    }
    expect(pathErrors({})).toEqual({ id: ['required'] });
  });

  it('takes body ids as strict numbers, never coerced', () => {
    expect(bodyErrors(7)).toBe(7);
    for (const bad of [0, -3, 1.5, ID_MAX + 1, '7', true, [1], {}]) {
      expect(bodyErrors(bad), JSON.stringify(bad)).toEqual({ _: ['invalid'] });
    }
    expect(bodyErrors(undefined)).toEqual({ _: ['required'] });
  });
});
