/**
 * The role-block rules (000 §5, 001 §3, §5) as pure functions: the client checks with the spec's texts, the
 * server's 422 keys renamed (extendedQuestionAnswers → the block, sites → AO/LAO) and translated, errors
 * re-indexed when a block is removed (up to 50 later blocks), and study roles used in other blocks.
 */
import { ACCESS_DATE_MESSAGES, MESSAGES } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import { studyRolesFixture, systemsFixture } from '../testing/referenceFixtures';
import type { RoleBlockValue } from './RoleBlock';
import {
  emptyBlock,
  nextQuestionNum,
  reindexBlockErrors,
  rolesUsedElsewhere,
  serverErrorsToForm,
  toAccessControl,
  validateBlocks,
} from './roleBlockForm';

const block = (over: Partial<RoleBlockValue>): RoleBlockValue => ({ ...emptyBlock(1, systemsFixture), ...over });

describe('role-block rules', () => {
  it('requires a study role, sites and studies as the role says, each role once, and Portal Gateway', () => {
    const errors = validateBlocks(
      [
        block({ roleName: null }),
        block({ roleName: 'Investigator' }),
        block({ roleName: 'Investigator', siteCodes: ['A200'], studyNames: ['STUDY-1'], systemAccessIds: ['2'] }),
        // Data Manager needs neither sites nor studies.
        block({ roleName: 'Data Manager' }),
      ],
      studyRolesFixture,
      systemsFixture,
    );
    expect(errors).toEqual({
      'accessControls.0.roleName': 'Study Role is required',
      'accessControls.1.sites': MESSAGES.access.atLeastOneSite,
      'accessControls.1.studyNames': MESSAGES.access.atLeastOneStudy,
      'accessControls.2.roleName': 'Each study role may be used only once per request',
      'accessControls.2.systemAccessIds': MESSAGES.access.fixedSystemRequired,
    });
  });

  it('starts a block with Portal Gateway checked, numbered one above the highest', () => {
    expect(emptyBlock(3, systemsFixture)).toMatchObject({ questionNum: 3, roleName: null, systemAccessIds: ['1'] });
    expect(nextQuestionNum([block({ questionNum: 2 }), block({ questionNum: 7 })])).toBe(8);
  });

  it('does not offer a study role another block uses', () => {
    const blocks = [
      block({ roleName: 'Investigator' }),
      block({ roleName: null }),
      block({ roleName: 'Data Manager' }),
    ];
    expect(rolesUsedElsewhere(blocks, 1)).toEqual(new Set(['Investigator', 'Data Manager']));
    expect(rolesUsedElsewhere(blocks, 0)).toEqual(new Set(['Data Manager']));
  });

  it("puts the server's keys under the block's fields, renamed and translated", () => {
    const { errors, unmatched } = serverErrorsToForm(
      {
        'registrationForm.extendedQuestionAnswers[1].sites': ['unknown'],
        'accessControls[1].laoIds': ['unknown', MESSAGES.access.atLeastOneSite],
        'accessControls[0].roleName': ['required'],
        'extendedQuestionAnswers[0].studyNames': ['size'],
        requesterComments: ['size'],
        somethingElse: ['invalid'],
      },
      { requesterComments: { label: 'Comments', plural: true } },
      ['registrationForm.'],
    );
    expect(errors).toEqual({
      'accessControls.1.sites': `AOs are unknown; LAOs are unknown; ${MESSAGES.access.atLeastOneSite}`,
      'accessControls.0.roleName': 'Study Role is required',
      'accessControls.0.studyNames': 'Studies are too long',
      requesterComments: 'Comments are too long',
    });
    expect(unmatched).toEqual(['somethingElse is invalid']);
  });

  it('puts the end date errors under the block and sends an end date only when the block offers one (issue 25)', () => {
    const { errors } = serverErrorsToForm(
      {
        'accessControls[0].accessEndDate': [ACCESS_DATE_MESSAGES.past],
        'accessControls[1].accessEndDate': ['invalid'],
      },
      {},
    );
    expect(errors).toEqual({
      'accessControls.0.accessEndDate': ACCESS_DATE_MESSAGES.past,
      'accessControls.1.accessEndDate': 'Access end date is invalid',
    });
    expect(toAccessControl(block({ roleName: 'Data Manager' }))).not.toHaveProperty('accessEndDate');
    expect(toAccessControl(block({ roleName: 'Data Manager', accessEndDate: '' })).accessEndDate).toBeNull();
    expect(toAccessControl(block({ roleName: 'Data Manager', accessEndDate: '2027-01-31' })).accessEndDate).toBe(
      '2027-01-31',
    );
  });

  it("drops a removed block's errors and moves later blocks' errors up (up to 50 later blocks)", () => {
    const errors = {
      'accessControls.0.roleName': 'a',
      'accessControls.1.sites': 'b',
      'accessControls.2.studyNames': 'c',
      'accessControls.52.roleName': 'far',
      requesterComments: 'd',
    };
    expect(reindexBlockErrors(errors, 1)).toEqual({
      'accessControls.0.roleName': 'a',
      'accessControls.1.studyNames': 'c',
      requesterComments: 'd',
    });
  });
});
