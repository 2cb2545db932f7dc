/** @portal/directory: the LDAP account directory and credential store. */
export * from './config';
export * from './password';
export * from './password-upgrade';
export * from './password-census';
export * from './client';
export * from './policy';
export * from './time';
export * from './expiry';
export * from './directory';
export * from './account';
export * from './timing';
export * from './registration-entries';
export * from './person-fields';
