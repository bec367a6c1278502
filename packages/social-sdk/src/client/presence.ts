/** Rich presence, online status and activity invites. */
import { activityToWire, type Activity } from '../activity.js';
import { ActivityActionTypes, StatusType } from '../enums.js';
import type { ActivityInvite } from '../handles.js';
import { invalid } from '../result.js';
import { snowflake, type Snowflake, type SnowflakeInput } from '../snowflake.js';
import { RelationshipsClient } from './relationships.js';

export abstract class PresenceClient extends RelationshipsClient {
  protected readonly acceptedInvites = new Set<Snowflake>();
  /** Invites received this session, with when they were sent, to follow their validity. */
  private readonly receivedInvites = new Map<Snowflake, { invite: ActivityInvite; sentAt: number }>();

  /**
   * An invite is joinable while it is under 6 hours old and its sender is still in the party it is for (a join
   * request: while its sender is online). Unknown presence counts as joinable.
   */
  private inviteValid(invite: ActivityInvite, sentAt: number): boolean {
    if (Date.now() - sentAt > INVITE_LIFETIME_MS) return false;
    const p = this.cache.presences.get(invite.senderId);
    if (!p) return true;
    if (invite.type === ActivityActionTypes.JoinRequest) return p.status !== 'offline';
    return p.activities.some((a) => a.party?.id === invite.partyId);
  }

  /** An invite message arrived: the invite callback gets it (never messageCreated). */
  protected inviteReceived(invite: ActivityInvite, sentAt: number): void {
    const current = { ...invite, isValid: this.inviteValid(invite, sentAt) };
    this.receivedInvites.set(invite.messageId, { invite: current, sentAt });
    this.events.emit('activityInviteCreated', current);
  }

  /** Sets the game's rich presence (validated here; name and application are the game's). */
  updateRichPresence(activity: Activity): Promise<void> {
    return this.op(async () => {
      const wire = activityToWire(activity, activity.name ?? 'Game');
      this.presence = { ...this.presence, activity, wire };
      this.gateway.setPresence(this.presencePayload());
    });
  }

  clearRichPresence(): void {
    this.presence = { ...this.presence, activity: null, wire: null };
    this.gateway.setPresence(this.presencePayload());
  }

  setOnlineStatus(status: StatusType): Promise<void> {
    return this.op(async () => {
      const map: Partial<Record<StatusType, string>> = {
        [StatusType.Online]: 'online',
        [StatusType.Idle]: 'idle',
        [StatusType.Dnd]: 'dnd',
        [StatusType.Invisible]: 'invisible',
      };
      const s = map[status];
      if (!s) throw invalid('online status is Online, Idle, Dnd or Invisible');
      this.presence.status = s;
      this.gateway.setPresence(this.presencePayload());
    });
  }

  /** Invites a user to the game in the current rich presence: it needs a party, a join secret and supported platforms. */
  sendActivityInvite(userId: SnowflakeInput, content = ''): Promise<void> {
    return this.op(async () => {
      const a = this.presence.activity;
      if (!a?.party?.id || !a.secrets?.join || !a.supportedPlatforms)
        throw invalid('an invite needs rich presence with a party, a join secret and supported platforms');
      await this.api('/users/@me/activity-invites', {
        method: 'POST',
        body: { recipient_id: snowflake(userId), content, type: ActivityActionTypes.Join, party_id: a.party.id, join_secret: a.secrets.join },
      });
    });
  }

  /** Asks to join a user's game (their rich presence must have a party). */
  sendActivityJoinRequest(userId: SnowflakeInput): Promise<void> {
    return this.op(async () => {
      const id = snowflake(userId);
      const party = this.cache.presences.get(id)?.activities?.find((x) => x.party?.id)?.party?.id;
      if (!party) throw invalid("the user's rich presence has no party to join");
      await this.api('/users/@me/activity-invites', { method: 'POST', body: { recipient_id: id, type: ActivityActionTypes.JoinRequest, party_id: party } });
    });
  }

  /** Answers a join request with an invite. */
  sendActivityJoinRequestReply(invite: ActivityInvite): Promise<void> {
    return this.sendActivityInvite(invite.senderId, '');
  }

  /** Accepts an invite: resolves with the join secret (and `activityJoin` fires with it). */
  acceptActivityInvite(invite: ActivityInvite): Promise<string> {
    return this.op(async () => {
      this.acceptedInvites.add(invite.messageId);
      const r = await this.api(`/users/@me/activity-invites/${invite.messageId}/accept`, { method: 'POST' });
      const join = { applicationId: invite.applicationId, joinSecret: r.join_secret as string };
      this.events.emit('activityJoin', join);
      this.events.emit('activityJoinWithApplication', join);
      return r.join_secret as string;
    });
  }
  setActivityInviteCreatedCallback(cb: ((invite: ActivityInvite) => void) | null): void {
    this.events.setSlot('activityInviteCreated', cb);
  }
  setActivityInviteUpdatedCallback(cb: ((invite: ActivityInvite) => void) | null): void {
    this.events.setSlot('activityInviteUpdated', cb);
  }
  setActivityJoinCallback(cb: ((joinSecret: string) => void) | null): void {
    this.events.setSlot('activityJoin', cb && ((e) => cb(e.joinSecret)));
  }
  setActivityJoinWithApplicationCallback(cb: ((applicationId: Snowflake, joinSecret: string) => void) | null): void {
    this.events.setSlot('activityJoinWithApplication', cb && ((e) => cb(e.applicationId, e.joinSecret)));
  }

  /** @internal */ handlePresence(d: any): void {
    this.cache.presences.set(d.user.id, { status: d.status, activities: d.activities ?? [] });
    this.events.emit('userUpdated', { userId: d.user.id });
    if (this.cache.relationships.has(d.user.id)) this.events.emit('relationshipGroupsUpdated', { userId: d.user.id });
    // Its sender left the party (or went offline, or came back): the invite's validity changed.
    for (const entry of this.receivedInvites.values()) {
      if (entry.invite.senderId !== d.user.id) continue;
      const valid = this.inviteValid(entry.invite, entry.sentAt);
      if (valid === entry.invite.isValid) continue;
      entry.invite = { ...entry.invite, isValid: valid };
      this.events.emit('activityInviteUpdated', entry.invite);
    }
  }

  /** @internal */ handleInviteAcceptedElsewhere(d: any): void {
    if (this.acceptedInvites.has(d.message_id)) return; // accepted here: the game already knows
    this.events.emit('activityInviteCreated', {
      senderId: d.sender_id,
      channelId: d.channel_id,
      messageId: d.message_id,
      type: d.type,
      applicationId: d.application_id,
      parentApplicationId: null,
      partyId: d.party_id,
      sessionId: d.session_id ?? null,
      isValid: !d.accepted,
    });
  }
}

const INVITE_LIFETIME_MS = 6 * 3600_000;

export function inviteFromMessage(d: any): ActivityInvite {
  return {
    senderId: d.author.id,
    channelId: d.channel_id,
    messageId: d.id,
    type: d.activity.type,
    applicationId: d.application_id ?? d.application?.id,
    parentApplicationId: null,
    partyId: d.activity.party_id,
    sessionId: d.activity.session_id ?? null,
    isValid: true,
  };
}
