import { ErrorType } from '../enums.js';
import type { RequestOptions } from '../http.js';
import { ClientResult } from '../result.js';

/** RFC 8628's grant type (the SDK's GetTokenFromDevice). */
export const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

export interface DeviceFlowHost {
  request(path: string, opts: RequestOptions): Promise<any>;
  /** Shows the verification page with the user code (the platform's client plays the console's companion screen). */
  showScreen(url: string, userCode: string): Promise<void>;
}

/** The OAuth2 error name of a failed token request (`authorization_pending`…), if it was one. */
function oauthError(err: unknown): string | null {
  if (!(err instanceof ClientResult) || !err.responseBody) return null;
  try {
    return JSON.parse(err.responseBody).error ?? null;
  } catch {
    return null;
  }
}

const wait = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new ClientResult(ErrorType.Aborted, 'GetTokenFromDevice was aborted'));
      },
      { once: true },
    );
  });

/**
 * The device authorization grant from the device's side: ask for a code pair, show the verification page, then poll
 * the token endpoint at the server's interval (5 s more after a slow_down) until the user answers. `extra` adds the
 * provisional merge's external auth. Resolves with the raw token response.
 */
export async function runDeviceFlow(host: DeviceFlowHost, clientId: string, scopes: string, extra: Record<string, string>, signal: AbortSignal) {
  const start = await host.request('/oauth2/device/authorize', {
    method: 'POST',
    auth: null,
    signal,
    body: new URLSearchParams({ client_id: clientId, scope: scopes }),
  });
  await host.showScreen(start.verification_uri_complete ?? start.verification_uri, start.user_code);
  let interval = (start.interval ?? 5) * 1000;
  for (;;) {
    await wait(interval, signal);
    try {
      return await host.request('/oauth2/token', {
        method: 'POST',
        auth: null,
        signal,
        body: new URLSearchParams({ grant_type: DEVICE_GRANT, device_code: start.device_code, client_id: clientId, ...extra }),
      });
    } catch (err) {
      const code = oauthError(err);
      if (code === 'authorization_pending') continue;
      if (code === 'slow_down') {
        interval += 5000;
        continue;
      }
      if (code === 'access_denied') throw new ClientResult(ErrorType.AuthorizationFailed, 'The user denied the request');
      if (code === 'expired_token') throw new ClientResult(ErrorType.AuthorizationFailed, 'The device code expired before the user answered');
      throw err;
    }
  }
}
