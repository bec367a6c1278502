import { HANDLERS } from './commands/index.js';
import type { ActivityHost, VoiceStateInfo, WireUser } from './host.js';
import { CloseCode, Opcode, RpcError, RpcErrorCode, closeFrame, dispatchFrame, errorReply, reply, type CommandFrame, type Message } from './protocol.js';
import type { Session } from './session.js';
import { commonUser, participant, readyUser, relationshipActivity, sdkUser, voiceState, type ApiEntitlement, entitlement } from './shapes.js';

export interface ParentOptions {
  host: ActivityHost;
  /** Sends one message to the frame (through the bridge page). */
  post(message: Message): void;
  /** The frame closed itself, or was closed after a bad handshake: code 1000 is a normal close. */
  onClose(code: number, message?: string): void;
  onReady?(): void;
  /** Sees every message sent (developer tools, tests). */
  onSend?(message: Message): void;
}

/**
 * The parent side of the Embedded App SDK for one frame: checks the handshake and sends READY, answers every command
 * on the SDK's schema (or with its error shape), keeps the frame's subscriptions, and turns the client's events into
 * dispatches. Callers hand it only messages whose `event.source` and `event.origin` they already checked.
 */
export class ActivityParent {
  readonly session: Session;
  private handshaken = false;
  private closed = false;

  constructor(private readonly opts: ParentOptions) {
    this.session = {
      host: opts.host,
      clientId: opts.host.launch.applicationId,
      auth: null,
      subscriptions: new Map(),
      dispatch: (evt, data) => this.dispatch(evt, data),
    };
  }

  get ready(): boolean {
    return this.handshaken && !this.closed;
  }

  receive(data: unknown): void {
    if (this.closed || !Array.isArray(data) || data.length < 2) return;
    const [op, payload] = data as [unknown, any];
    if (op === Opcode.HANDSHAKE) return this.handshake(payload);
    if (op === Opcode.FRAME) return void this.command(payload);
    if (op === Opcode.CLOSE) {
      this.closed = true;
      const code = typeof payload?.code === 'number' ? payload.code : CloseCode.NORMAL;
      return this.opts.onClose(code, typeof payload?.message === 'string' ? payload.message : undefined);
    }
  }

  /** The client closes the frame (the person closed the Activity, or it must stop). */
  close(code: number = CloseCode.NORMAL, message?: string): void {
    if (this.closed) return;
    this.send(closeFrame(code, message));
    this.closed = true;
  }

  /** Sends a dispatch if the frame subscribed to the event. */
  dispatch(evt: string, data: unknown): void {
    if (this.ready && this.session.subscriptions.has(evt)) this.send(dispatchFrame(evt, data));
  }

  // ---- Events from the client ----

  participantsChanged(users: WireUser[]): void {
    this.dispatch('ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE', { participants: users.map((u) => participant(u)) });
  }

  voiceStateChanged(channelId: string, v: VoiceStateInfo): void {
    if (this.session.subscriptions.get('VOICE_STATE_UPDATE')?.channel_id === channelId) this.dispatch('VOICE_STATE_UPDATE', voiceState(v));
  }

  speaking(channelId: string, userId: string, speaking: boolean): void {
    const evt = speaking ? 'SPEAKING_START' : 'SPEAKING_STOP';
    const want = this.session.subscriptions.get(evt);
    if (want && (!want.channel_id || want.channel_id === channelId)) this.dispatch(evt, { channel_id: channelId, user_id: userId });
  }

  entitlementCreated(e: ApiEntitlement): void {
    if (e.application_id === this.session.clientId) this.dispatch('ENTITLEMENT_CREATE', { entitlement: entitlement(e, this.opts.host.me().id) });
  }

  relationshipChanged(r: { type: number; user: WireUser }): void {
    const p = this.opts.host.presence(r.user.id);
    this.dispatch('RELATIONSHIP_UPDATE', {
      type: r.type,
      user: sdkUser(r.user),
      ...(p ? { presence: { status: p.status, activity: relationshipActivity(p.activities?.[0]) } } : {}),
    });
  }

  currentUserChanged(u: WireUser): void {
    this.dispatch('CURRENT_USER_UPDATE', commonUser(u));
  }

  memberChanged(m: { user_id: string; guild_id: string; nick?: string | null; avatar?: string | null }): void {
    if (this.session.subscriptions.get('CURRENT_GUILD_MEMBER_UPDATE')?.guild_id === m.guild_id) {
      this.dispatch('CURRENT_GUILD_MEMBER_UPDATE', { user_id: m.user_id, guild_id: m.guild_id, nick: m.nick ?? null, avatar: m.avatar ?? null });
    }
  }

  layoutChanged(): void {
    this.dispatch('ACTIVITY_LAYOUT_MODE_UPDATE', { layout_mode: this.opts.host.layoutMode() });
  }

  orientationChanged(): void {
    const o = this.opts.host.orientation();
    this.dispatch('ORIENTATION_UPDATE', { screen_orientation: o === 'portrait' ? 0 : 1, orientation: o });
  }

  // ---- The protocol ----

  private send(m: Message): void {
    this.opts.onSend?.(m);
    this.opts.post(m);
  }

  private handshake(p: any): void {
    const fail = (code: number, message: string) => {
      this.send(closeFrame(code, message));
      this.closed = true;
      this.opts.onClose(code, message);
    };
    if (!p || typeof p !== 'object' || p.v !== 1) return fail(CloseCode.INVALID_VERSION, 'Invalid Version');
    if (p.encoding !== undefined && p.encoding !== 'json') return fail(CloseCode.INVALID_ENCODING, 'Invalid Encoding');
    if (p.client_id !== this.session.clientId) return fail(CloseCode.INVALID_CLIENTID, 'Invalid Client ID');
    if (p.frame_id !== this.opts.host.launch.frameId) return fail(CloseCode.INVALID_CLIENTID, 'Invalid Frame ID');
    // Each handshake is a fresh SDK (the frame may navigate and start again): it starts unsubscribed and
    // unauthenticated, and waits for its own READY.
    this.session.subscriptions.clear();
    this.session.auth = null;
    this.handshaken = true;
    const h = this.opts.host;
    // `nonce: null` must be present, and `avatar` left out rather than null (the SDK drops READY otherwise).
    this.send(dispatchFrame('READY', { v: 1, config: h.config, user: readyUser(h.me()) }));
    this.opts.onReady?.();
  }

  private async command(p: any): Promise<void> {
    const frame = p as CommandFrame;
    const cmd = typeof frame?.cmd === 'string' ? frame.cmd : '';
    const nonce = typeof frame?.nonce === 'string' ? frame.nonce : null;
    if (!cmd || !nonce) return this.send(errorReply(cmd || 'DISPATCH', nonce, RpcErrorCode.INVALID_PAYLOAD, 'A command needs cmd and nonce'));
    const handler = (HANDLERS as Record<string, (typeof HANDLERS)[keyof typeof HANDLERS]>)[cmd];
    if (!handler) return this.send(errorReply(cmd, nonce, RpcErrorCode.INVALID_COMMAND, `Unknown command ${cmd}`));
    const args = frame.args && typeof frame.args === 'object' && !Array.isArray(frame.args) ? (frame.args as Record<string, unknown>) : {};
    let out: Message;
    try {
      out = reply(cmd, nonce, await handler(this.session, args, frame));
    } catch (err) {
      out =
        err instanceof RpcError
          ? errorReply(cmd, nonce, err.code, err.message)
          : errorReply(cmd, nonce, RpcErrorCode.UNKNOWN, err instanceof Error ? err.message : 'The command failed');
    }
    if (this.closed) return;
    this.send(out);
    if (cmd === 'SUBSCRIBE' && out[1] && (out[1] as any).evt === null) this.afterSubscribe(String(frame.evt));
  }

  /** Events with a current value get it right away: the layout mode and the orientation. */
  private afterSubscribe(evt: string): void {
    if (evt === 'ACTIVITY_LAYOUT_MODE_UPDATE') this.layoutChanged();
    if (evt === 'ORIENTATION_UPDATE') this.orientationChanged();
  }
}
