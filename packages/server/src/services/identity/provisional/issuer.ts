import { isIP } from 'node:net';

/**
 * Issuer URL rules for OIDC providers (reference/social-sdk.md §5, the seed spec's "stricter hostname checks"):
 * `https://` only; no query, fragment or credentials; a host name of at least two labels, not an IP literal and not
 * under `.local`, `.arpa`, `.internal` or `.localhost`; non-standard ports allowed.
 *
 * A dev server (`--dev`, itself loopback-only) also accepts issuers on a loopback address over http, so a developer
 * can run an identity provider beside Accord on 127.0.0.1; every other rule still applies to them.
 */
const FORBIDDEN_SUFFIXES = ['.local', '.arpa', '.internal', '.localhost'];

export type IssuerProblem = string | null;

const isLoopbackHost = (host: string) => host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);

/** Why an issuer (or a URL announced by one, such as `jwks_uri`) is refused, or null when it is fine. */
export function checkProviderUrl(raw: string, opts: { allowLoopback: boolean }): IssuerProblem {
  if (raw.length > 2048) return 'The URL is too long.';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'Not a well formed URL.';
  }
  if (url.username || url.password) return 'The URL must not carry credentials.';
  if (url.search || raw.includes('?')) return 'The URL must not have a query.';
  if (url.hash || raw.includes('#')) return 'The URL must not have a fragment.';
  const host = url.hostname.toLowerCase();
  if (opts.allowLoopback && isLoopbackHost(host) && (url.protocol === 'http:' || url.protocol === 'https:')) return null;
  if (url.protocol !== 'https:') return 'The URL must use https.';
  const bare = host.replace(/^\[|\]$/g, '');
  if (isIP(bare)) return 'The host must be a name, not an IP address.';
  const labels = host.replace(/\.$/, '').split('.');
  if (labels.length < 2 || labels.some((l) => !/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(l))) return 'The host must be a fully qualified domain name.';
  if (FORBIDDEN_SUFFIXES.some((s) => host.endsWith(s)) || host === 'localhost')
    return 'The host must be publicly resolvable (no .local, .arpa, .internal or .localhost).';
  return null;
}

/** The discovery document of an issuer (no trailing slash doubled). */
export const discoveryUrl = (issuer: string) => `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
