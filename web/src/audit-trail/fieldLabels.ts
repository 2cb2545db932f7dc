import type { AuditEntityType } from '@portal/contract';

/**
 * The labels an auditor reads for the snapshot fields of audit rows: the screens' own labels (001 §2.8 review,
 * §2.12 configuration editors), not the stored field names ('versionno', 'requestStatus'). A field without
 * a label here is spelled out from its name ('someField' → 'Some field'), never shown raw.
 */
const COMMON: Record<string, string> = {
  id: 'Id',
  versionno: 'Version',
  requestStatus: 'Request Status',
  requestType: 'Request Type',
  reviewerComments: 'Reviewer Comments',
  requesterComments: 'Requester Comments',
  sysaidTicket: 'External Ticket #',
  inactive: 'Inactive',
  sort: 'Sort Order',
  permissions: 'Permissions',
  roleName: 'Role Name',
  description: 'Description',
  systemName: 'System Name',
  allowAOs: 'Allow AOs',
  allowLAOs: 'Allow LAOs',
  siteRequired: 'AOs/LAOs Required',
  studyRequired: 'Studies Required',
  systemAccessIds: 'Default Applications',
  studyNames: 'Studies',
  laoIds: 'LAOs',
  siteCodes: 'AOs',
  accessControls: 'Requested Access',
  requestId: 'Request',
  changes: 'Changes',
  firstName: 'First Name',
  lastName: 'Last Name',
  email: 'Email',
  username: 'Username',
};

/** Where an entity's screen names a field differently (a portal role's description is its 'Role Name'). */
const BY_ENTITY: Partial<Record<AuditEntityType, Record<string, string>>> = {
  PortalRole: { description: 'Role Name' },
  AccessModRequest: { systemAccessIds: 'Systems' },
  UserAccess: { systemAccessIds: 'Systems' },
  // The single sign-on section of Configure → Systems (issue 22).
  SsoClient: {
    systemAccessId: 'System',
    clientId: 'Client ID',
    isPublic: 'Public client',
    redirectUris: 'Redirect URIs',
    postLogoutRedirectUris: 'Post-logout redirect URIs',
    backchannelLogoutUri: 'Back-channel logout URI',
    initiateLoginUri: 'Initiate-login URI',
    hasSecret: 'Client secret on record',
  },
};

/** 'someField' → 'Some field'. */
function spelledOut(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The label of snapshot field `key` of an audit row about `entityType`. */
export function fieldLabel(entityType: string, key: string): string {
  return BY_ENTITY[entityType as AuditEntityType]?.[key] ?? COMMON[key] ?? spelledOut(key);
}
