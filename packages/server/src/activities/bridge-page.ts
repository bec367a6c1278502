import crypto from 'node:crypto';

/**
 * The bridge page, served on each app's own proxy origin at BRIDGE_PATH. The Embedded App SDK accepts messages only
 * from its own origin, a few official ones and 'null' (reference/activities.md §2), so a self-hosted client cannot
 * answer it directly. The client frames this page instead; the page frames the Activity, which is then same-origin
 * with its parent, and relays `[opcode, payload]` both ways, checking who sent each message (`event.source`) and
 * from where (`event.origin`): the Activity's frame on this origin, or the client on its configured origin.
 *
 * In a pop-out window the client is the page's opener. The SDK would post to `window.parent.opener` first, straight to
 * the client and with this origin as the target, so the page keeps the opener for itself and clears `window.opener`
 * before the Activity starts.
 *
 * Query: the SDK's parameters (frame_id, instance_id, platform, …), passed on to the Activity unchanged, plus
 * `accord_popout=1` in a pop-out and `accord_ticket` (the person's proxy ticket, set as a cookie by the response and
 * removed from the address before the Activity starts). The page also relays `{accord: 'proxy-ticket', ticket}` from the client: it stores
 * a fresh proxy ticket in this origin's cookie (REQUEST_PROXY_TICKET_REFRESH).
 */

export const BRIDGE_PATH = '/.well-known/accord/activity-bridge.html';
export const TICKET_PATH = '/.well-known/accord/proxy-ticket';

/** What the Activity's frame may use (the client's frame grants the same to the bridge). */
export const ACTIVITY_ALLOW = 'autoplay; clipboard-write; encrypted-media; fullscreen; gamepad; picture-in-picture; web-share';

export function bridgePage(parentOrigin: string): { html: string; csp: string } {
  const nonce = crypto.randomBytes(16).toString('base64');
  const script = `(() => {
  const PARENT = ${JSON.stringify(parentOrigin)};
  const TICKET_PATH = ${JSON.stringify(TICKET_PATH)};
  const params = new URLSearchParams(location.search);
  const popout = params.get('accord_popout') === '1';
  const parent = popout ? window.opener : (window.parent !== window ? window.parent : null);
  if (popout) { try { window.opener = null; } catch (e) {} }
  if (!parent) { document.body.textContent = 'This page only runs inside the client.'; return; }
  params.delete('accord_popout');
  // The ticket was for this page's response (now a cookie): neither the address bar nor the Activity's referrer keeps it.
  if (params.has('accord_ticket')) {
    params.delete('accord_ticket');
    history.replaceState(null, '', location.pathname + '?' + params.toString() + (popout ? '&accord_popout=1' : ''));
  }
  const frame = document.createElement('iframe');
  frame.allow = ${JSON.stringify(ACTIVITY_ALLOW)};
  frame.title = 'Activity';
  frame.src = '/?' + params.toString();
  document.body.appendChild(frame);
  window.addEventListener('message', (event) => {
    const data = event.data;
    if (event.source === frame.contentWindow && event.origin === location.origin) {
      if (Array.isArray(data)) parent.postMessage(data, PARENT);
      return;
    }
    if (event.source !== parent || event.origin !== PARENT) return;
    if (Array.isArray(data)) {
      if (frame.contentWindow) frame.contentWindow.postMessage(data, location.origin);
    } else if (data && data.accord === 'proxy-ticket' && typeof data.ticket === 'string') {
      fetch(TICKET_PATH, { method: 'POST', body: data.ticket, credentials: 'same-origin' })
        .then((r) => parent.postMessage({ accord: 'proxy-ticket-stored', ok: r.ok }, PARENT), () => parent.postMessage({ accord: 'proxy-ticket-stored', ok: false }, PARENT));
    }
  });
  parent.postMessage({ accord: 'bridge-ready' }, PARENT);
})();`;
  const html = `<!doctype html>
<html><head><meta charset="utf-8"><title>Activity</title><meta name="referrer" content="same-origin">
<style>html,body{margin:0;height:100%;overflow:hidden;background:transparent}iframe{display:block;border:0;width:100%;height:100%}</style>
</head><body><script nonce="${nonce}">${script}</script></body></html>`;
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    "style-src 'unsafe-inline'",
    "frame-src 'self'",
    "connect-src 'self'",
    `frame-ancestors ${parentOrigin}`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  return { html, csp };
}
