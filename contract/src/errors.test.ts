import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { zodToFieldErrors } from './errors';
import { CreateAccessModRequestBodySchema, ReviewAccessChangeBodySchema } from './schemas';

describe('zodToFieldErrors', () => {
  it('keys errors by the spec field path with indices and reason keys', () => {
    const result = CreateAccessModRequestBodySchema.safeParse({
      portalUserId: 3,
      requestType: 'NEW',
      accessControls: [{ roleName: '' }, { roleName: 'x'.repeat(200) }],
      requesterComments: 'c'.repeat(513),
    });
    expect(result.success).toBe(false);
    expect(zodToFieldErrors(result.error!)).toEqual({
      'accessControls[0].roleName': ['required'],
      'accessControls[1].roleName': ['size'],
      requesterComments: ['size'],
    });
  });

  it('reports missing fields as required and wrong types as invalid', () => {
    const result = ReviewAccessChangeBodySchema.safeParse({
      userAccessModificationRequest: { id: 'abc', requestStatus: 'DONE' },
    });
    expect(zodToFieldErrors(result.error!)).toEqual({
      'userAccessModificationRequest.id': ['invalid'],
      'userAccessModificationRequest.versionno': ['required'],
      'userAccessModificationRequest.requestStatus': ['invalid'],
    });
  });

  it('keeps a refinement sentence as it is and maps email formats to validEmail', () => {
    const schema = z.object({
      email: z.email(),
      roles: z.array(z.string()).refine((r) => r.length > 0, 'At least one Portal Role must be selected'),
    });
    const result = schema.safeParse({ email: 'nope', roles: [] });
    expect(zodToFieldErrors(result.error!)).toEqual({
      email: ['validEmail'],
      roles: ['At least one Portal Role must be selected'],
    });
  });
});
