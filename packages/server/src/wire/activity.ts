import type { ChannelRecord } from '../store/records.js';
import type { AccordActivityInstanceUpdate, AccordActivityLocation } from './extensions.js';
import { dropUndefined } from './drop-undefined.js';

/** Wire shapes of Activity instances: their id, their location, and the EMBEDDED_ACTIVITY_UPDATE_V2 payload. */

// The records are the repository's (store/repos/activities.ts), under the names this domain uses.
import type { ActivityInstanceRecord as InstanceRecord, ActivityParticipantRecord as ParticipantRecord } from '../store/repos/activities.js';
export type { InstanceRecord, ParticipantRecord };

/** `i-<launch_id>-gc-<guild_id>-<channel_id>` in guilds, `i-<launch_id>-pc-<channel_id>` in private channels. */
export function instanceIdFor(launchId: string, channel: Pick<ChannelRecord, 'id' | 'guild_id'>): string {
  return channel.guild_id ? `i-${launchId}-gc-${channel.guild_id}-${channel.id}` : `i-${launchId}-pc-${channel.id}`;
}

export function locationOf(i: Pick<InstanceRecord, 'channel_id' | 'guild_id'>): AccordActivityLocation {
  return i.guild_id
    ? { id: `gc-${i.guild_id}-${i.channel_id}`, kind: 'gc', channel_id: i.channel_id, guild_id: i.guild_id }
    : { id: `pc-${i.channel_id}`, kind: 'pc', channel_id: i.channel_id };
}

type Participant = AccordActivityInstanceUpdate['participants'][number];

/** Distinct users of an instance, in joining order. */
export const usersOf = (ps: ParticipantRecord[]) => [...new Set(ps.map((p) => p.user_id))];

/**
 * EMBEDDED_ACTIVITY_UPDATE_V2, as the official client reads it: the instance (`instance_id`, also as
 * `composite_instance_id`), its launch and location, and its participants as sessions (`nonce` echoes the launch
 * request of that session). An ended instance has no participants.
 */
export function instanceUpdateWire(inst: InstanceRecord, participants: ParticipantRecord[]): AccordActivityInstanceUpdate {
  return dropUndefined<AccordActivityInstanceUpdate>({
    application_id: inst.application_id,
    instance_id: inst.instance_id,
    composite_instance_id: inst.instance_id,
    launch_id: inst.launch_id,
    location: locationOf(inst),
    guild_id: inst.guild_id || undefined,
    participants: participants.map((p) => dropUndefined<Participant>({ user_id: p.user_id, session_id: p.session_id, nonce: p.nonce || undefined })),
  });
}
