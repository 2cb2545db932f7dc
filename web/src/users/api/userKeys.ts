/** Query keys of the user detail (000 §7 user_management); the list's keys start with the same root. */
export const userKeys = {
  all: ['users'] as const,
  detail: (id: number) => ['users', 'detail', id] as const,
  portalRoles: ['users', 'portalRoles'] as const,
};
