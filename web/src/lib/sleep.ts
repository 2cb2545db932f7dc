/** Resolves after `ms` milliseconds: the spec's fixed delays before a form answers (000 §9). */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
