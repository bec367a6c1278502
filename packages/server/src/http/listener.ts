import net from 'node:net';
import type { Config } from '../config.js';
import { loadLocalTls, type LocalTls } from '../core/local-tls.js';

/**
 * Names the generated API certificate covers: the address clients dial (a wildcard listen address is reached on
 * 127.0.0.1), the loopback names, the public URL's host, `<app_id>.<activity proxy host>`, and --tls-hosts (the
 * platform's own names by default, for clients that hard-code them and reach this server through /etc/hosts).
 */
export function apiTlsHosts(cfg: Config): string[] {
  const bare = (h: string) => h.replace(/^\[|\]$/g, '');
  const hosts = [['0.0.0.0', '::'].includes(cfg.host) ? '127.0.0.1' : bare(cfg.host), 'localhost', '127.0.0.1', '::1'];
  if (cfg.publicUrl) hosts.push(bare(new URL(cfg.publicUrl).hostname));
  const activityHost = cfg.activityProxyHost?.replace(/:\d+$/, '');
  if (activityHost && !net.isIP(bare(activityHost))) hosts.push(`*.${activityHost}`);
  if (cfg.tlsHosts.trim().toLowerCase() !== 'none')
    hosts.push(
      ...cfg.tlsHosts
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    );
  return [...new Set(hosts)];
}

/** With --tls: the API port's certificate, the configured one or the local CA's (made once in the data dir). */
export function prepareApiTls(cfg: Config): LocalTls | null {
  if (!cfg.tls) return null;
  return loadLocalTls({
    certPath: cfg.tlsCert,
    keyPath: cfg.tlsKey,
    dir: cfg.dataDir,
    hosts: apiTlsHosts(cfg),
    leaf: 'api',
    flags: ['--tls-cert', '--tls-key'],
  });
}

/** Fastify's server options: HTTPS when there is a certificate (Gateway upgrades on that server are then WSS). */
export const listenerOptions = (tls: LocalTls | null): { https?: { cert: string; key: string } } => (tls ? { https: { cert: tls.cert, key: tls.key } } : {});

/** The base URL the server advertises when --public-url is unset; a scheme's default port is left out. */
export function derivedPublicUrl(cfg: Config, port: number): string {
  const host = cfg.host.includes(':') ? `[${cfg.host}]` : cfg.host === '0.0.0.0' ? '127.0.0.1' : cfg.host;
  const scheme = cfg.tls ? 'https' : 'http';
  return new URL(`${scheme}://${host}:${port}`).origin;
}

/** A failed listen with what to do about it added (the code stays: EADDRINUSE, EACCES). */
export function explainListenError(err: unknown): unknown {
  const e = err as NodeJS.ErrnoException & { port?: number };
  if (e?.code === 'EADDRINUSE') e.message += ': another process listens on that port (pick another with --port, or stop it)';
  else if (e?.code === 'EACCES' && typeof e.port === 'number' && e.port < 1024) e.message += ': ports below 1024 need root or CAP_NET_BIND_SERVICE';
  return err;
}
