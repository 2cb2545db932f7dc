/** @portal/directory: the LDAP account directory and credential store. */
export * from './config';
export * from './password';
export * from './directory';
