import { ApplicationFailure } from '@temporalio/activity';
import { describe, expect, it } from 'vitest';
import { isPermanentMailFailure, sendEach } from './per-recipient';

const smtp = (responseCode: number) => Object.assign(new Error(`${responseCode} reply`), { responseCode });

describe('isPermanentMailFailure', () => {
  it('takes 5xx replies and refused envelopes as final, everything else as for now', () => {
    expect(isPermanentMailFailure(smtp(550))).toBe(true);
    expect(isPermanentMailFailure(Object.assign(new Error('No recipients defined'), { code: 'EENVELOPE' }))).toBe(true);
    expect(isPermanentMailFailure(smtp(450))).toBe(false);
    expect(isPermanentMailFailure(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ESOCKET' }))).toBe(false);
    expect(isPermanentMailFailure(ApplicationFailure.retryable('in flight', 'MAIL_IN_FLIGHT'))).toBe(false);
    expect(isPermanentMailFailure(null)).toBe(false);
  });
});

describe('sendEach', () => {
  it('sends the others past a refused and a deferred recipient, giving up only the refused one', async () => {
    const given: string[] = [];
    const sent: string[] = [];
    const result = await sendEach(
      ['refused', 'later', 'ok'],
      async (to) => {
        if (to === 'refused') throw smtp(550);
        if (to === 'later') throw smtp(421);
        sent.push(to);
      },
      async (to, reason) => void given.push(`${to}: ${reason}`),
    );
    expect(result).toEqual({ sent: 1, givenUp: 1, deferred: 1 });
    expect(sent).toEqual(['ok']);
    expect(given).toEqual(['refused: 550 reply']);
  });

  it('throws the failure when every mail failed for now (the server is away)', async () => {
    const err = smtp(421);
    await expect(
      sendEach(
        [1, 2],
        () => Promise.reject(err),
        () => Promise.resolve(),
      ),
    ).rejects.toBe(err);
  });
});
