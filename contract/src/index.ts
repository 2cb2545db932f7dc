/** @portal/contract: the wire contract shared by the API and the browser. */
export * from './permissions';
export * from './statuses';
export * from './limits';
export * from './ids';
export * from './text';
export * from './messages';
export * from './errors';
export * from './schemas';
export * from './reference';
export * from './configuration';
export * from './audit';
export * from './auth';
export * from './registration';
export * from './users';
export * from './user-detail';
export * from './dashboard';
export * from './profile-change';
