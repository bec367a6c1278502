// An /etc/hosts line for one Node process: the platform's host names resolve to this machine, so a bot that
// hard-codes them reaches an Accord started with --intercept. Load it before the bot:
//   NODE_OPTIONS="--import @accord/testing/intercept-hosts" NODE_EXTRA_CA_CERTS=<data>/voice-tls/ca.pem node bot.js
// ACCORD_INTERCEPT_ADDRESS changes the address (default 127.0.0.1). Where /etc/hosts can be edited, use that instead.
import dns from 'node:dns';

const HOSTS = new Set(['discord.com', 'gateway.discord.gg', 'cdn.discordapp.com', 'media.discordapp.net']);
const address = process.env.ACCORD_INTERCEPT_ADDRESS || '127.0.0.1';
const family = address.includes(':') ? 6 : 4;
const lookup = dns.lookup;

dns.lookup = function interceptLookup(host, options, callback) {
  const cb = typeof options === 'function' ? options : callback;
  const opts = typeof options === 'function' || options == null ? {} : typeof options === 'number' ? { family: options } : options;
  if (!HOSTS.has(String(host).toLowerCase())) return lookup.call(this, host, options, callback);
  if (opts.all) return process.nextTick(cb, null, [{ address, family }]);
  return process.nextTick(cb, null, address, family);
};
