// Loaded after intercept-hosts: prints each host name the bot resolves as a step, so the test sees which of the
// platform's names it dialled (the bot itself is left as it is).
import dns from 'node:dns';

const lookup = dns.lookup;
dns.lookup = function recordLookup(host, ...rest) {
  process.stdout.write(`${JSON.stringify({ step: 'lookup', host: String(host) })}\n`);
  return lookup.call(this, host, ...rest);
};
