/** @portal/scripts: the local stack, for `npm run up` and for tests. */
export { startStack, type Stack, type StackOptions, type StackUrls, type PortalEnv } from './stack';
export { ConfigError, loadStackEnv, type StackEnv } from './config';
export { readMail, clearMail, type CaughtMail } from './services/mail';
export { resolveTemporalBinary } from './temporal-binary';
export { freePort, waitForPort, waitForHttp } from './net';
export { API_ENTRY } from './apps';
export { startScimServer, scimServerBinary, type ScimHandle } from './services/scim';
