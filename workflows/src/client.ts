/** What clients (API, worker, tests) need of the workflows: definitions, ids, messages, types, search attributes. */
export * from './lifecycle/types';
export * from './lifecycle/definition';
export * from './lifecycle/messages';
export * from './lifecycle/rules';
export * from './lifecycle/start';
export * from './access-change/definition';
export * from './registration/definition';
export * from './profile-change/definition';
export * from './digest/types';
export * from './access-expiry/types';
export * from './search-attributes';
export * from './proxy-batch/types';
export * from './proxy-batch/start';
export * from './start';
export * from './sso-logout/types';
export * from './sso-logout/start';
