/** What clients (API, worker, tests) need of the workflows: types, ids, messages and search attributes. */
export * from './access-change/types';
export * from './access-change/messages';
export * from './access-change/rules';
export * from './search-attributes';
