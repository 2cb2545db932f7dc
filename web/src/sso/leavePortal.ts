/** Leaves the app for `url` (the provider's resume URL): a full page load, not a router navigation. */
export function leavePortal(url: string): void {
  window.location.assign(url);
}
