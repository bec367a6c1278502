import type { Session } from '../lib/session.js';
import type { InstanceInfo } from './instances.js';

/**
 * The three ways this client starts or joins an Activity, and leaving one. Each call only asks the server; the
 * panel opens when EMBEDDED_ACTIVITY_UPDATE_V2 lists this session among the instance's participants.
 */

export interface EntryPoint {
  id: string;
  name: string;
  application_id: string;
  version?: string;
}

/** Extra launch parameters for the next frame of an app in a channel (from a share link). */
const extras = new Map<string, { customId: string | null; referrerId: string | null }>();
export const setLaunchExtras = (appId: string, channelId: string, e: { customId: string | null; referrerId: string | null }) =>
  extras.set(`${appId}:${channelId}`, e);
export const launchExtras = (appId: string, channelId: string) => extras.get(`${appId}:${channelId}`) ?? { customId: null, referrerId: null };

const nonce = () => String(BigInt(Date.now()) << 22n);

/** Runs the app's Entry Point command here (handler 2: the platform launches; handler 1: the app answers with LAUNCH_ACTIVITY). */
export async function launchEntryPoint(session: Session, cmd: EntryPoint, where: { guildId: string | null; channelId: string }): Promise<void> {
  await session.api.interactions.create({
    type: 2,
    application_id: cmd.application_id,
    channel_id: where.channelId,
    ...(where.guildId ? { guild_id: where.guildId } : {}),
    session_id: session.store.state.sessionId,
    nonce: nonce(),
    data: { id: cmd.id, name: cmd.name, type: 4, ...(cmd.version ? { version: cmd.version } : {}) },
  });
}

/** Joins the app's running instance in the channel, or starts one (the launcher, a share link, "Join"). */
export async function joinActivity(session: Session, appId: string, channelId: string): Promise<void> {
  await session.api.http.post(`/activities/${channelId}/${appId}`, { session_id: session.store.state.sessionId, nonce: nonce() });
}

/** Leaves the instance with this session. `keepalive` lets the request finish while the page unloads. */
export function leaveActivity(session: Session, inst: InstanceInfo, keepalive = false): Promise<unknown> {
  const path = `/applications/${inst.application_id}/activities/${inst.location.id}/instances/${inst.instance_id}/leave`;
  const body = { session_id: session.store.state.sessionId };
  if (!keepalive) return session.api.http.post(path, body).catch(() => undefined);
  return fetch(`/api/v10${path}`, {
    method: 'POST',
    keepalive: true,
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', authorization: session.token ?? '' },
  }).catch(() => undefined);
}
