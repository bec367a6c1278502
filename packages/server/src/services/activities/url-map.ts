import { fieldError } from '../../core/errors.js';
import type { FetchRule } from '../../core/url-policy.js';

/**
 * An app's URL mappings (the portal's Activities → URL Mappings): requests to `<prefix>/<rest>` on the app's proxy
 * host go to `<target>/<rest>`. Targets carry no protocol on the real platform (the proxy speaks https, and wss for
 * WebSockets); Accord also accepts an explicit `http://` so a developer can map a plain local server in dev.
 * `{name}` parameters in a prefix fill the same names in the target's host (`/google/{sub}` → `{sub}.google.com`).
 */
export interface UrlMapping {
  prefix: string;
  target: string;
}

export const MAX_MAPPINGS = 50;
/** Paths the proxy host keeps for itself (the bridge page and the proxy ticket); no mapping may claim them. */
export const RESERVED_PREFIX = '/.well-known/accord';
export const PROXY_PREFIX = '/.proxy';

const PARAM = /\{([a-z]+)\}/g;
const PREFIX_CHARS = /^\/[A-Za-z0-9._~!$&'()*+,;=:@%{}/-]*$/;
const HOST = /^(?:\[[0-9a-fA-F:.]+\]|[A-Za-z0-9{}](?:[A-Za-z0-9{}.-]{0,251}[A-Za-z0-9{}])?)(?::\d{1,5})?$/;
const PATH_CHARS = /^[A-Za-z0-9._~!$&'()*+,;=:@%/-]*$/;

/** Splits a target into scheme, host (with port) and base path. */
export function parseTarget(target: string): { scheme: 'https' | 'http'; host: string; path: string } | null {
  const m = /^(?:(https?):\/\/)?([^/?#]+)(\/[^?#]*)?$/.exec(target);
  if (!m || !HOST.test(m[2])) return null;
  const port = /:(\d+)$/.exec(m[2])?.[1];
  if (port && Number(port) > 65535) return null;
  const path = (m[3] ?? '').replace(/\/+$/, '');
  if (!PATH_CHARS.test(path) || path.split('/').includes('..')) return null;
  return { scheme: (m[1] as 'https' | 'http' | undefined) ?? 'https', host: m[2].toLowerCase(), path };
}

const normPrefix = (p: string) => (p === '/' ? '/' : p.replace(/\/+$/, ''));

/**
 * Validates a whole list (50035 on the offending entry); returns it normalised (no trailing slashes). With `rule`
 * (the operator's outgoing policy), a plain-http target must be a host that policy lets http reach.
 */
export function validateUrlMap(list: UrlMapping[], path: (string | number)[] = ['url_map'], rule?: FetchRule): UrlMapping[] {
  if (list.length > MAX_MAPPINGS) throw fieldError(path, 'BASE_TYPE_MAX_LENGTH', `Must be ${MAX_MAPPINGS} or fewer in length.`);
  const seen = new Set<string>();
  return list.map((m, i) => {
    const prefix = normPrefix(m.prefix.trim());
    const target = m.target.trim();
    if (!PREFIX_CHARS.test(prefix) || prefix.split('/').includes('..') || prefix.includes('//')) {
      throw fieldError([...path, i, 'prefix'], 'URL_MAPPING_PREFIX_INVALID', 'The prefix must be a path starting with /.');
    }
    if (prefix === RESERVED_PREFIX || prefix.startsWith(`${RESERVED_PREFIX}/`) || prefix === PROXY_PREFIX || prefix.startsWith(`${PROXY_PREFIX}/`)) {
      throw fieldError([...path, i, 'prefix'], 'URL_MAPPING_PREFIX_RESERVED', `Prefixes under ${PROXY_PREFIX} and ${RESERVED_PREFIX} are reserved.`);
    }
    const t = parseTarget(target);
    if (!t)
      throw fieldError([...path, i, 'target'], 'URL_MAPPING_TARGET_INVALID', 'The target must be a host with an optional port and path, without a protocol.');
    if (t.scheme === 'http' && rule && !rule.httpAllowed(t.host.replace(/:\d+$/, ''))) {
      throw fieldError([...path, i, 'target'], 'URL_TYPE_INVALID_SCHEME', 'Scheme "http" is not supported for this host. Scheme must be one of (\'https\').');
    }
    // A literal address the policy refuses (also spelled `2130706433` or `[::ffff:7f00:1]`) is refused here already;
    // names are judged when the proxy connects (core/outgoing.ts), on the address they resolve to then.
    if (rule?.addressRefused?.(t.host.replace(/:\d+$/, ''))) {
      throw fieldError([...path, i, 'target'], 'URL_MAPPING_TARGET_INVALID', "The target's address is refused by the server's outgoing policy.");
    }
    const names = new Set([...prefix.matchAll(PARAM)].map((x) => x[1]));
    for (const [, name] of target.matchAll(PARAM)) {
      if (!names.has(name)) throw fieldError([...path, i, 'target'], 'URL_MAPPING_TARGET_INVALID', `The parameter {${name}} is not in the prefix.`);
    }
    if (seen.has(prefix)) throw fieldError([...path, i, 'prefix'], 'URL_MAPPING_PREFIX_DUPLICATE', 'Each prefix may be mapped once.');
    seen.add(prefix);
    return { prefix, target };
  });
}

function prefixRegex(prefix: string): RegExp {
  if (prefix === '/') return /^(?=\/)/;
  const escaped = prefix.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{([a-z]+)\\?\}/g, '(?<$1>[\\w-]+)');
  return new RegExp(`^${escaped}(?=/|$)`);
}

/** The mapping a request path goes to, and the upstream URL; the longest matching prefix wins. Null: unmapped. */
export function resolveMapping(list: UrlMapping[], pathAndQuery: string): { mapping: UrlMapping; url: URL } | null {
  const q = pathAndQuery.indexOf('?');
  const path = q < 0 ? pathAndQuery : pathAndQuery.slice(0, q);
  const search = q < 0 ? '' : pathAndQuery.slice(q);
  let best: { mapping: UrlMapping; match: RegExpExecArray } | null = null;
  for (const mapping of list) {
    const match = prefixRegex(mapping.prefix).exec(path);
    if (match && (!best || match[0].length > best.match[0].length)) best = { mapping, match };
  }
  if (!best) return null;
  const groups = best.match.groups ?? {};
  const target = best.mapping.target.replace(PARAM, (_, name: string) => groups[name] ?? '');
  const t = parseTarget(target);
  if (!t) return null;
  const rest = path.slice(best.match[0].length);
  const url = new URL(`${t.scheme}://${t.host}${t.path}${rest.startsWith('/') || rest === '' ? rest : `/${rest}`}${search}`);
  // The mapped path must stay under the target's base path (no climbing out with encoded dots).
  if (t.path && url.pathname !== t.path && !url.pathname.startsWith(`${t.path}/`)) return null;
  return { mapping: best.mapping, url };
}

const UNRESERVED = /^[A-Za-z0-9._~-]$/;

/**
 * A request's path, normalised before any matching (RFC 3986 §6.2.2): percent-encoded unreserved characters are
 * decoded (`%61` → `a`, `%2e` → `.`) and other escapes upper-cased. Null when the path is ambiguous, which the proxy
 * refuses with a 400: an encoded slash or backslash (`%2F`, `%5C`), a literal backslash, a dot segment (`.` or `..`,
 * literal or encoded), a double-encoded dot, slash or backslash (`%252E`), an encoded control character, or a broken
 * escape. An upstream that decodes its path would otherwise read any of these as a step out of the mapped base.
 * The query is kept as it is (it never moves the path).
 */
export function normalizeRequestPath(pathAndQuery: string): string | null {
  const q = pathAndQuery.indexOf('?');
  const path = q < 0 ? pathAndQuery : pathAndQuery.slice(0, q);
  const search = q < 0 ? '' : pathAndQuery.slice(q);
  if (!path.startsWith('/') || path.includes('\\') || path.includes('#')) return null;
  let bad = false;
  const norm = path.replace(/%([0-9A-Fa-f]{2})?/g, (escape, hex: string | undefined) => {
    if (!hex) return ((bad = true), escape);
    const code = parseInt(hex, 16);
    const char = String.fromCharCode(code);
    if (UNRESERVED.test(char)) return char;
    if (char === '/' || char === '\\' || code < 0x20 || code === 0x7f) bad = true;
    return `%${hex.toUpperCase()}`;
  });
  if (bad || /%25(?:2E|2F|5C)/i.test(norm)) return null;
  if (norm.split('/').some((segment) => segment === '.' || segment === '..')) return null;
  return `${norm}${search}`;
}

/** `/.proxy/x` and `/x` are the same request (since 2025-07-30 both forms are served). */
export function stripProxyPrefix(pathAndQuery: string): string {
  if (pathAndQuery === PROXY_PREFIX || pathAndQuery.startsWith(`${PROXY_PREFIX}?`)) return `/${pathAndQuery.slice(PROXY_PREFIX.length)}`;
  if (pathAndQuery.startsWith(`${PROXY_PREFIX}/`)) return pathAndQuery.slice(PROXY_PREFIX.length);
  return pathAndQuery;
}
