/**
 * Where the consent page may send the browser after the server answered. The server already refuses dangerous
 * redirect URIs; the page checks again, so a bad answer can never run script or open a document made of data.
 *
 * Allowed: http(s) URLs and the private-use schemes native apps register (`com.example.app:/callback`, RFC 8252 §7.1).
 * Refused: every scheme a browser would execute or render from the URL itself.
 */

const REFUSED = new Set(['javascript:', 'data:', 'vbscript:', 'blob:', 'file:', 'about:', 'filesystem:', 'view-source:', 'jar:']);

export type Destination = { kind: 'internal'; path: string } | { kind: 'external'; url: string } | { kind: 'refused'; reason: string };

export function checkDestination(location: unknown, origin = window.location.origin): Destination {
  if (typeof location !== 'string' || !location.trim()) return { kind: 'refused', reason: 'The server gave no address to return to.' };
  let url: URL;
  try {
    url = new URL(location, origin);
  } catch {
    return { kind: 'refused', reason: 'The address to return to is not a valid URL.' };
  }
  // Browsers drop tabs and newlines inside a scheme ("java\tscript:"): URL parsing already did, so test the parsed one.
  if (REFUSED.has(url.protocol.toLowerCase())) return { kind: 'refused', reason: `Refused to open a ${url.protocol} address.` };
  if (url.origin === origin) return { kind: 'internal', path: url.pathname + url.search + url.hash };
  return { kind: 'external', url: url.href };
}
