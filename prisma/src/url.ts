/**
 * Splits a postgres:// URL into the discrete pool settings the pg adapter wants (a connection string
 * makes its shadow database connect to the main one: ENVIRONMENT.md).
 * @throws Error when the URL is not a postgres URL.
 */
export function poolConfigFromUrl(url: string): {
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
} {
  const u = new URL(url);
  if (!/^postgres(ql)?:$/.test(u.protocol)) throw new Error(`DATABASE_URL is not a postgres URL: ${u.protocol}`);
  return {
    host: u.hostname,
    port: Number(u.port || 5432),
    user: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password),
    database: u.pathname.replace(/^\//, '') || 'postgres',
  };
}
