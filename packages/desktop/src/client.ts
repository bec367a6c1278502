import { allCommands } from './commands/index.js';
import type { ConsentPrompter } from './consent.js';
import { PlatformApi } from './platform/api.js';
import { UserGateway } from './platform/gateway.js';
import { ClientState } from './platform/state.js';
import { RpcCore } from './rpc/core.js';
import { IpcServer } from './transport/ipc-server.js';
import { WS_PORTS, WsServer } from './transport/ws-server.js';
import { WebConsentLink } from './link/web-link.js';

export interface DesktopOptions {
  /** The Accord server, e.g. http://127.0.0.1:8080. */
  server: string;
  /** A user token; or `login` + `password`. */
  token?: string;
  login?: string;
  password?: string;
  /** Asks for consent when no web client is linked (or always, with `webConsent: false`). */
  prompter: ConsentPrompter;
  /** Let an open Accord web client of the same account show consent (on the WebSocket port; default true). */
  webConsent?: boolean;
  /** Serve IPC (default true) and WebSocket (default true). */
  ipc?: boolean;
  websocket?: boolean;
  /** Environment used to find the IPC directory (defaults to process.env). */
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  wsPorts?: number[];
}

/**
 * The local client: logged in as a person, with a Gateway session of its own, serving RPC to apps on this machine
 * over IPC and WebSocket.
 */
export class DesktopClient {
  readonly api: PlatformApi;
  gateway!: UserGateway;
  readonly state = new ClientState();
  core!: RpcCore;
  ipc: IpcServer | null = null;
  ws: WsServer | null = null;
  /** The open web client's consent link, when served. */
  link: WebConsentLink | null = null;
  user: any = null;

  constructor(private readonly opts: DesktopOptions) {
    this.api = new PlatformApi(opts.server.replace(/\/+$/, ''));
  }

  async start(): Promise<this> {
    const o = this.opts;
    let token = o.token;
    if (!token) {
      if (!o.login || !o.password) throw new Error('give a token, or a login and a password');
      token = await this.api.login(o.login, o.password);
    }
    this.api.setToken(token);
    this.user = await this.api.request('/users/@me');
    const { url } = await this.api.request<{ url: string }>('/gateway');
    this.gateway = new UserGateway(url, token);
    if (o.websocket !== false && o.webConsent !== false) this.link = new WebConsentLink(this.api, String(this.user.id), o.prompter);
    this.core = new RpcCore({
      api: this.api,
      gateway: this.gateway,
      state: this.state,
      prompter: this.link ?? o.prompter,
      user: this.user,
      baseUrl: this.api.baseUrl,
      commands: allCommands(),
    });
    await this.gateway.start();
    try {
      if (o.ipc !== false) {
        this.ipc = new IpcServer(this.core, { env: o.env, platform: o.platform });
        await this.ipc.listen();
      }
      if (o.websocket !== false) {
        this.ws = new WsServer(this.core, o.wsPorts ?? WS_PORTS, this.link);
        await this.ws.listen();
      }
    } catch (err) {
      await this.stop();
      throw err;
    }
    return this;
  }

  async stop(): Promise<void> {
    this.link?.close();
    this.core?.close();
    await Promise.all([this.ipc?.close(), this.ws?.close()]);
    this.gateway?.stop();
  }
}
