import { ApiError, type PlatformApi } from '../platform/api.js';
import type { ClientState } from '../platform/state.js';
import { RpcError, RpcErrorCode } from './codes.js';
import type { RpcSocket } from './socket.js';
import { rpcUser } from './views.js';

/**
 * Activity invites between people, carried by the platform as DM messages with `activity {type, party_id}` and
 * `application` (POST /users/@me/activity-invites with the person's token). What the local client does with them:
 *
 * - someone asks to join (type 5, JOIN_REQUEST): the app hears ACTIVITY_JOIN_REQUEST `{user}`;
 * - the app answers (SEND_ACTIVITY_JOIN_INVITE) or invites someone (ACTIVITY_INVITE_USER): an invite (type 1) with
 *   the join secret of the app's own activity, which the platform keeps until the other person accepts;
 * - an invite that answers the person's own Ask to Join (sent from any of their clients) is accepted at once, and the
 *   app hears ACTIVITY_JOIN `{secret}`; any other invite is offered to the app as ACTIVITY_INVITE, which it may take
 *   with ACCEPT_ACTIVITY_INVITE.
 */
export const ActivityActionType = { JOIN: 1, JOIN_REQUEST: 5 } as const;

/** What invites need of the RPC core (kept narrow: the core owns this object). */
export interface InviteHost {
  readonly api: PlatformApi;
  readonly user: any;
  readonly state: ClientState;
  activityEvent(applicationId: string, evt: 'ACTIVITY_JOIN' | 'ACTIVITY_JOIN_REQUEST' | 'ACTIVITY_INVITE', data: unknown): number;
}

export class ActivityInvites {
  /** The person's open Ask to Join requests, by `appId:dmChannelId` (the host answers in the same DM). */
  private readonly asks = new Set<string>();

  constructor(private readonly core: InviteHost) {}

  /** Sends an invite to join the app's current activity (its party and join secret). */
  async send(socket: RpcSocket, userId: string, content?: string): Promise<void> {
    const a = socket.activity;
    if (!a?.secrets?.join || !a.party?.id) {
      throw new RpcError(
        RpcErrorCode.NO_ELIGIBLE_ACTIVITY,
        'No eligible activity for application. Ensure an activity includes a party and appropriate secret.',
      );
    }
    try {
      await this.core.api.request('/users/@me/activity-invites', {
        method: 'POST',
        body: {
          recipient_id: userId,
          application_id: socket.app.id,
          type: ActivityActionType.JOIN,
          party_id: a.party.id,
          join_secret: a.secrets.join,
          ...(content ? { content } : {}),
        },
      });
    } catch (err) {
      // An unknown or malformed user: the platform's 10013 / 50035 on recipient_id.
      if (err instanceof ApiError && (err.code === 10013 || (err.code === 50035 && err.body?.errors?.recipient_id))) {
        throw new RpcError(RpcErrorCode.INVALID_USER, `Invalid user id: ${userId}`);
      }
      if (err instanceof ApiError && err.code === 50007) throw new RpcError(RpcErrorCode.INVALID_USER, 'Cannot send an invite to this user');
      throw err;
    }
  }

  /** Accepts an invite sent to the person: the platform hands out the join secret once; the app hears ACTIVITY_JOIN. */
  async accept(applicationId: string, messageId: string): Promise<string> {
    let secret: string;
    try {
      secret = (await this.core.api.request<{ join_secret: string }>(`/users/@me/activity-invites/${encodeURIComponent(messageId)}/accept`, { method: 'POST' }))
        .join_secret;
    } catch (err) {
      if (err instanceof ApiError && err.status < 500) throw new RpcError(RpcErrorCode.INVALID_ACTIVITY_SECRET, 'Invalid invite');
      throw err;
    }
    this.core.activityEvent(applicationId, 'ACTIVITY_JOIN', { secret });
    return secret;
  }

  /** A DM message from the person's Gateway session; invites and join requests are acted on, others ignored. */
  onMessage(d: any): void {
    const type = Number(d?.activity?.type);
    const appId = d?.application?.id ?? d?.application_id;
    if (!appId || (type !== ActivityActionType.JOIN && type !== ActivityActionType.JOIN_REQUEST)) return;
    const app = String(appId);
    const channelId = String(d.channel_id);
    const mine = String(d.author?.id) === String(this.core.user.id);
    if (mine) {
      if (type === ActivityActionType.JOIN_REQUEST) this.asks.add(`${app}:${channelId}`);
      return;
    }
    const user = rpcUser(d.author);
    if (type === ActivityActionType.JOIN_REQUEST) {
      this.core.activityEvent(app, 'ACTIVITY_JOIN_REQUEST', { user });
      return;
    }
    if (this.asks.delete(`${app}:${channelId}`)) {
      // The answer to the person's own request: join at once (a failure leaves the invite in the DM to accept later).
      void this.accept(app, String(d.id)).catch(() => {});
      return;
    }
    // The sender's activity as their presence shows it (name, party, assets), else what the invite itself carries.
    const activity = this.core.state.activityOf(String(d.author?.id), app) ?? d.activity;
    this.core.activityEvent(app, 'ACTIVITY_INVITE', { type, user, activity, channel_id: channelId, message_id: String(d.id) });
  }
}
