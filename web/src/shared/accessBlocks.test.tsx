/**
 * 'Apply Above Changes' (001 §4) and the records sent back (000 §7 userAccesses): NEW and CHANGE replace the
 * requested role's block, keeping the record it edits, or add it; REMOVAL removes it; the finalization warning
 * knows whether the requested access is in the blocks.
 */
import type { AccessControl, UserAccess } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import { systemsFixture } from '../testing/referenceFixtures';
import { applyRequestedAccess, blocksFromRecords, requestedAccessApplied, toUserAccesses } from './accessBlocks';

const record = (id: number, roleName: string, patch: Partial<UserAccess> = {}): UserAccess => ({
  id,
  portalUserId: 7,
  entity: 'PortalUser',
  formId: null,
  roleName,
  inactive: false,
  sites: [],
  siteCodes: [],
  laoIds: [],
  studyNames: [],
  accessEndDate: null,
  accessEndsSoon: false,
  systemAccessIds: [1],
  versionno: 3,
  priorAccessControlId: null,
  originalRevisionNumber: null,
  createdBy: 'admin',
  lastModifiedBy: 'admin',
  sysdat: '2026-01-01T00:00:00.000Z',
  dchng: '2026-01-01T00:00:00.000Z',
  ...patch,
});
const asked: AccessControl = {
  roleName: 'Investigator',
  siteCodes: ['AO1'],
  laoIds: [],
  studyNames: ['STUDY-1'],
  systemAccessIds: [1, 2],
};
const held = () =>
  blocksFromRecords([record(5, 'Investigator', { siteCodes: ['AO9'] }), record(6, 'Data Manager')], systemsFixture);

describe('accessBlocks', () => {
  it('CHANGE replaces the role block and keeps the record it edits; the records go back with id and version', () => {
    const blocks = applyRequestedAccess(held(), { requestType: 'CHANGE', accessControls: [asked] }, systemsFixture);
    expect(blocks.map((b) => b.roleName)).toEqual(['Data Manager', 'Investigator']);
    const sent = toUserAccesses(blocks, 7);
    expect(sent[1]).toMatchObject({
      id: 5,
      versionno: 3,
      siteCodes: ['AO1'],
      studyNames: ['STUDY-1'],
      portalUserId: 7,
    });
    expect(sent[0]).toMatchObject({ id: 6, versionno: 3 });
    expect(requestedAccessApplied(blocks, { requestType: 'CHANGE', accessControls: [asked] })).toBe(true);
    expect(requestedAccessApplied(held(), { requestType: 'CHANGE', accessControls: [asked] })).toBe(false);
  });

  it('NEW adds a block without a record; REMOVAL removes the role', () => {
    const only = blocksFromRecords([record(6, 'Data Manager')], systemsFixture);
    const added = applyRequestedAccess(only, { requestType: 'NEW', accessControls: [asked] }, systemsFixture);
    expect(added.map((b) => [b.roleName, b.recordId, b.questionNum])).toEqual([
      ['Data Manager', 6, 1],
      ['Investigator', null, 2],
    ]);
    const removal = { requestType: 'REMOVAL' as const, accessControls: [{ ...asked, roleName: 'Data Manager' }] };
    expect(requestedAccessApplied(only, removal)).toBe(false);
    const removed = applyRequestedAccess(only, removal, systemsFixture);
    expect(removed).toEqual([]);
    expect(requestedAccessApplied(removed, removal)).toBe(true);
  });

  it('carries end dates (issue 25): held ones stay unless the request names one; a cleared one goes as null', () => {
    const dated = () =>
      blocksFromRecords(
        [record(5, 'Investigator', { accessEndDate: '2027-03-01', accessEndsSoon: true }), record(6, 'Data Manager')],
        systemsFixture,
      );
    const blocks = dated();
    expect(blocks.map((b) => [b.roleName, b.accessEndDate, b.accessEndsSoon])).toEqual([
      ['Data Manager', '', false],
      ['Investigator', '2027-03-01', true],
    ]);
    // An old client's request names no end date: the held one stays.
    const kept = applyRequestedAccess(dated(), { requestType: 'CHANGE', accessControls: [asked] }, systemsFixture);
    expect(kept[1]).toMatchObject({ accessEndDate: '2027-03-01', recordId: 5 });
    expect(requestedAccessApplied(kept, { requestType: 'CHANGE', accessControls: [asked] })).toBe(true);
    // An extension names a later one: applied, and the warning knows whether it is.
    const extension = { requestType: 'CHANGE' as const, accessControls: [{ ...asked, accessEndDate: '2027-09-01' }] };
    expect(requestedAccessApplied(kept, extension)).toBe(false);
    const extended = applyRequestedAccess(dated(), extension, systemsFixture);
    expect(extended[1]).toMatchObject({ accessEndDate: '2027-09-01', recordId: 5, versionno: 3 });
    expect(requestedAccessApplied(extended, extension)).toBe(true);
    const sent = toUserAccesses(extended, 7);
    expect(sent[1]).toMatchObject({ id: 5, accessEndDate: '2027-09-01' });
    // A block without an end date goes as null (none), not absent.
    expect(sent[0]!.accessEndDate).toBeNull();
  });
});
