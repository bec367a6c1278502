/** Where to go after signing in: only a path on this origin, never another site (open-redirect guard). */
export function safeRedirect(search: string, fallback = '/channels/@me'): string {
  const to = new URLSearchParams(search).get('redirect_to');
  if (!to || !to.startsWith('/') || to.startsWith('//') || to.startsWith('/\\')) return fallback;
  return to;
}
