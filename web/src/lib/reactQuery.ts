import type { UseMutationOptions } from '@tanstack/react-query';

/**
 * Types shared by the features' `api/` files (one file per endpoint: the fetcher, its `queryOptions` with the
 * key beside the URL, and a hook). A mutation hook takes `mutationConfig` for what the screen adds (messages,
 * navigation); the invalidation stays in the hook, so every caller gets it.
 */

/** Any endpoint fetcher: one argument (or none), a promise. */
// `never` accepts every parameter type, so a fetcher of any argument is assignable.
export type Fetcher = (variables: never) => Promise<unknown>;

/** The resolved value of a fetcher. */
export type FetcherResult<F extends Fetcher> = Awaited<ReturnType<F>>;

/** What a screen may add to an endpoint's mutation: everything but the call itself. */
export type MutationConfig<F extends Fetcher> = Omit<
  UseMutationOptions<FetcherResult<F>, Error, Parameters<F>[0]>,
  'mutationFn'
>;
