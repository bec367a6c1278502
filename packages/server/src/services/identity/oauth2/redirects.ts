import { urlIssue } from '../../../core/url-policy.js';

/**
 * Whether a redirect_uri is one of the app's. Exact matches, and for native apps (RFC 8252 §7.3) a loopback URI
 * registered without a port matches the same URI on any port: a game's SDK listens on an ephemeral port of
 * 127.0.0.1 (or [::1]) for the authorization answer.
 */
export function redirectAllowed(registered: string[], uri: string): boolean {
  // A URI saved before the URL policy existed (javascript:, data:…) never becomes a redirect target.
  if (urlIssue(uri, 'redirect')) return false;
  if (registered.includes(uri)) return true;
  let u: URL;
  try {
    u = new URL(uri);
  } catch {
    return false;
  }
  if (u.protocol !== 'http:' || !['127.0.0.1', '[::1]'].includes(u.hostname) || !u.port) return false;
  u.port = '';
  return registered.includes(u.toString());
}
