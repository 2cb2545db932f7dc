import type { Page } from '@portal/contract';

/** The page window of a 1-based `page` of `size` rows, for Prisma's skip/take. */
export const pageWindow = (q: { page: number; size: number }): { skip: number; take: number } => ({
  skip: (q.page - 1) * q.size,
  take: q.size,
});

/** Wraps one page of rows in the spec's page envelope (000 §3 Page info, 000 §7 users list response). */
export function toPage<T>(
  content: T[],
  totalElements: number,
  q: { page: number; size: number },
  sort: string,
): Page<T> {
  const totalPages = Math.max(1, Math.ceil(totalElements / q.size));
  return {
    content,
    totalElements,
    numberOfElements: content.length,
    size: q.size,
    number: q.page,
    totalPages,
    first: q.page === 1,
    last: q.page >= totalPages,
    sort,
  };
}
