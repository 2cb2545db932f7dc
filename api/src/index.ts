/**
 * @portal/api: the server factory and configuration, for the API process and the API tests; and a server built
 * without services, for the tests that read its routes.
 */
export { buildServer } from './server';
export { buildMetricsServer } from './observability/metrics-routes';
export { buildElearningServer } from './features/dashboard-resources/elearning-server';
export { ApiConfigSchema, loadApiConfig, type ApiConfig } from './config';
export type { Deps } from './deps';
export type { CatalogRoute } from './plugins/route-catalog';
export { buildOfflineServer, type OfflineServer } from './plugins/offline-server';
