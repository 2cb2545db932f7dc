/** @portal/scim: the SCIM 2.0 client of provisioning (issue 41). */
export * from './client';
export * from './user-resource';
