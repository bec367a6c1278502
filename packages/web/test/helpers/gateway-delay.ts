import type { Page } from 'playwright-core';

/**
 * Holds back one dispatch type on the page's Gateway socket, so a test can put an HTTP answer before the live event
 * it causes: the order a loaded server gives at times, and the one where a UI that trusts only the event flickers.
 */
export async function holdDispatch(page: Page, type: string, ms: number): Promise<void> {
  await page.routeWebSocket(
    (url) => url.searchParams.get('v') === '10',
    (ws) => {
      const server = ws.connectToServer();
      ws.onMessage((m) => server.send(m));
      server.onMessage((m) => {
        const held = typeof m === 'string' && (JSON.parse(m) as { t?: string }).t === type;
        if (held) setTimeout(() => ws.send(m), ms);
        else ws.send(m);
      });
    },
  );
}
