import { z } from 'zod';

/**
 * The one place that says which URLs a field may hold (issue 14). Three kinds:
 * - `redirect`: an OAuth2 redirect URI. http(s), or a custom scheme of letters, digits, `+`, `.` and `-` (the Social
 *   SDK's `<word>:/authorize/callback`), but never a scheme that runs or reads something where it lands
 *   (`javascript`, `data`, `vbscript`, `file`, …).
 * - `link`: a page the platform shows users or opens for them (custom install URL, role connections verification,
 *   terms, privacy). http(s) only.
 * - `fetch`: a URL the server itself calls (interactions endpoint, event webhooks, OIDC issuer). https, or http only
 *   to a host the operator's outgoing allow list covers (core/outgoing.ts checks the address again at connect time).
 * Every URL: at most 2048 characters, no credentials (`user:pass@`), no control characters or spaces.
 */
export type UrlKind = 'redirect' | 'link' | 'fetch';

export const MAX_URL_LENGTH = 2048;
const SCHEME = /^[a-z][a-z0-9+.-]*$/;
const FORBIDDEN_SCHEMES = new Set([
  'javascript',
  'data',
  'vbscript',
  'file',
  'blob',
  'about',
  'filesystem',
  'view-source',
  'jar',
  'ws',
  'wss',
  'ftp',
  'chrome',
  'intent',
]);
const UNSAFE_CHARS = /[\u0000-\u0020\u007f-\u009f\\]/;

export interface UrlIssue {
  code: 'URL_TYPE_INVALID_URL' | 'URL_TYPE_INVALID_SCHEME';
  message: string;
}

export interface FetchRule {
  /** Whether plain http may go to this host (a literal address in the operator's allow list, or localhost). */
  httpAllowed(host: string): boolean;
  /** Whether this host, when it is a literal address, is one the policy refuses even over https (never resolves names). */
  addressRefused?(host: string): boolean;
}

const invalid = (): UrlIssue => ({ code: 'URL_TYPE_INVALID_URL', message: 'Not a well formed URL.' });
const scheme = (s: string, allowed: string): UrlIssue => ({
  code: 'URL_TYPE_INVALID_SCHEME',
  message: `Scheme "${s.slice(0, 32)}" is not supported. Scheme must be one of (${allowed}).`,
});

/** Why `raw` may not be stored in a field of this kind, or null when it may. */
export function urlIssue(raw: string, kind: UrlKind, rule?: FetchRule): UrlIssue | null {
  if (typeof raw !== 'string' || !raw || raw.length > MAX_URL_LENGTH || UNSAFE_CHARS.test(raw)) return invalid();
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return invalid();
  }
  const s = url.protocol.slice(0, -1).toLowerCase();
  if (url.username || url.password) return invalid();
  const web = s === 'http' || s === 'https';
  if (web && !url.hostname) return invalid();
  switch (kind) {
    case 'redirect':
      if (web) return null;
      if (!SCHEME.test(s) || FORBIDDEN_SCHEMES.has(s)) return scheme(s, "'http', 'https', or an app's own scheme");
      return null;
    case 'link':
      return web ? null : scheme(s, "'http', 'https'");
    case 'fetch':
      if (s === 'https') return null;
      if (s === 'http' && rule?.httpAllowed(url.hostname.replace(/^\[|\]$/g, ''))) return null;
      return scheme(s, "'https'");
  }
}

/** A zod string field holding a URL of this kind; an issue becomes the field's 50035 leaf (core/validation.ts). */
export function urlField(kind: UrlKind, rule?: () => FetchRule | undefined) {
  return z.string().superRefine((v, c) => {
    const issue = urlIssue(v, kind, rule?.());
    if (issue) c.addIssue({ code: 'custom', message: issue.message, params: { code: issue.code } });
  });
}
