/**
 * What the benches share: percentiles, timing two things in turn, and a lean HTTP client. Times are
 * milliseconds from `performance.now()`.
 */
import http from 'node:http';

/** The `p`th percentile (nearest rank) of `values`; NaN when empty. */
export const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
};

/** The median of `values` (the mean of the middle two for an even count); NaN when empty. */
export const median = (values: number[]): number => {
  const s = [...values].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/**
 * Times `a` and `b` `times` times each, one after the other in turn, after `warmUp` untimed runs of each: a
 * compiler warming up or a neighbour's burst of work falls on both alike, so their ratio is fair.
 * @returns the times of `a` and of `b`.
 */
export async function timeAlternately(
  a: () => Promise<void>,
  b: () => Promise<void>,
  times: number,
  warmUp = 20,
): Promise<[number[], number[]]> {
  for (let i = 0; i < warmUp; i++) {
    await a();
    await b();
  }
  const ms: [number[], number[]] = [[], []];
  for (let i = 0; i < times; i++) {
    for (const [k, run] of [a, b].entries()) {
      const started = performance.now();
      await run();
      ms[k]!.push(performance.now() - started);
    }
  }
  return ms;
}

/**
 * A GET client over one kept-alive connection (node:http), for timing the API rather than the client:
 * `fetch` spends about 0.15 ms more per call on its own machinery, which the SQL side of a ratio never pays.
 * @returns `get(path)`, which resolves with the body once read and rejects on any status but 200, and
 *   `close()`.
 */
export function keepAliveClient(
  base: string,
  headers: Record<string, string> = {},
): { get(path: string): Promise<Buffer>; close(): void } {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  return {
    get: (path) =>
      new Promise((resolve, reject) => {
        const req = http.get(`${base}${path}`, { agent, headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () =>
            res.statusCode === 200
              ? resolve(Buffer.concat(chunks))
              : reject(new Error(`GET ${path} answered ${res.statusCode}`)),
          );
        });
        req.on('error', reject);
      }),
    close: () => agent.destroy(),
  };
}
