/**
 * The web client's side of the link to Accord's local client (packages/desktop, link/web-link.ts): the local client
 * serves it on its RPC WebSocket port (127.0.0.1:6463–6472) at `/accord-link`, to pages of its own Accord server only.
 * The page finds the port (a GET that names the local client's account to this origin), connects, and sends its
 * token only when the local client is logged into the same account. It then receives the AUTHORIZE consent requests
 * of apps on this computer, and answers them.
 */
export const LINK_PORTS = [6463, 6464, 6465, 6466, 6467, 6468, 6469, 6470, 6471, 6472];
export const LINK_PATH = '/accord-link';
const SERVICE = 'accord-desktop-link';

/** What an app on this computer asks for (the local client's ConsentRequest). */
export interface DesktopConsent {
  id: string;
  request: {
    application: { id: string; name: string; icon: string | null; description?: string };
    scopes: string[];
    user: { id: string; username: string; global_name?: string | null };
    transport: 'ipc' | 'websocket';
  };
}

export interface LinkEvents {
  onLinked(linked: boolean): void;
  onConsent(c: DesktopConsent): void;
  /** Answered elsewhere (another tab, or timed out). */
  onSettled(id: string): void;
}

/** The first port whose local client is logged into `userId`, or null. Silent when none runs. */
export async function findLocalClient(userId: string, ports = LINK_PORTS): Promise<number | null> {
  for (const port of ports) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}${LINK_PATH}`, { cache: 'no-store' });
      const body = res.ok ? await res.json() : null;
      if (body?.service === SERVICE && body.user_id === userId) return port;
    } catch {
      // nothing there, or not for this page
    }
  }
  return null;
}

/** One connection to the local client; `close()` ends it. */
export function openLink(port: number, userId: string, token: string, ev: LinkEvents): { answer(id: string, approve: boolean): void; close(): void } {
  const ws = new WebSocket(`ws://127.0.0.1:${port}${LINK_PATH}`);
  ws.onmessage = (e) => {
    let m: any;
    try {
      m = JSON.parse(String(e.data));
    } catch {
      return;
    }
    // The token goes only to a local client that says it is this account (it checks the token with the server).
    if (m.op === 'hello') return m.user_id === userId ? ws.send(JSON.stringify({ op: 'auth', token })) : ws.close();
    if (m.op === 'ready') return ev.onLinked(true);
    if (m.op === 'consent' && typeof m.id === 'string' && m.request?.application) return ev.onConsent({ id: m.id, request: m.request });
    if (m.op === 'settled' && typeof m.id === 'string') return ev.onSettled(m.id);
  };
  ws.onclose = () => ev.onLinked(false);
  return {
    answer: (id, approve) => ws.readyState === WebSocket.OPEN && ws.send(JSON.stringify({ op: 'answer', id, approve })),
    close: () => ws.close(),
  };
}
