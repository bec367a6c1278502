import { RpcError, RpcErrorCode } from '../protocol.js';
import { channel, participant, sdkUser } from '../shapes.js';
import { fromApi, isSnowflake, requireScopes, str, type Handler } from '../session.js';

/** The Activity's place: its channel, the person's permissions there, who takes part, users, and invites. */

const CREATE_INSTANT_INVITE = 1n;
/** Group DMs need dm_channels.read besides guilds. */
const GROUP_DM = 3;

export const getChannel: Handler = async (s, args) => {
  requireScopes(s, 'guilds');
  const id = str(args, 'channel_id');
  if (!isSnowflake(id)) throw new RpcError(RpcErrorCode.INVALID_CHANNEL, 'Invalid channel id');
  let c: any;
  try {
    c = await s.host.api.request('GET', `/channels/${id}`);
  } catch (err) {
    throw fromApi(err, RpcErrorCode.INVALID_CHANNEL);
  }
  // Only the Activity's own guild (or its own private channel).
  const here = s.host.launch;
  if (here.guildId ? c.guild_id !== here.guildId : c.id !== here.channelId) throw new RpcError(RpcErrorCode.INVALID_CHANNEL, 'Unknown channel');
  if (c.type === GROUP_DM) requireScopes(s, 'guilds', 'dm_channels.read');
  return channel(c, s.host.voiceStates(c.id));
};

export const getChannelPermissions: Handler = async (s) => {
  requireScopes(s, 'guilds.members.read');
  return { permissions: String(s.host.channelPermissions() ?? 0n) };
};

export const getParticipants: Handler = async (s) => ({ participants: s.host.participants().map((u) => participant(u)) });

export const getUser: Handler = async (s, args) => {
  const id = str(args, 'id', { max: 64 });
  if (!isSnowflake(id)) return null;
  const known = s.host.participants().find((u) => u.id === id) ?? (s.host.me().id === id ? s.host.me() : null);
  if (known) return sdkUser(known);
  try {
    return sdkUser(await s.host.api.request('GET', `/users/${id}`));
  } catch {
    return null;
  }
};

export const openInviteDialog: Handler = async (s) => {
  const here = s.host.launch;
  if (!here.guildId) throw new RpcError(RpcErrorCode.INVALID_CHANNEL, 'Invites are for guild channels');
  const perms = s.host.channelPermissions() ?? 0n;
  if (!(perms & CREATE_INSTANT_INVITE)) throw new RpcError(RpcErrorCode.INVALID_PERMISSIONS, 'Missing the CREATE_INSTANT_INVITE permission');
  let invite: { code: string };
  try {
    invite = await s.host.api.request('POST', `/channels/${here.channelId}/invites`, {
      body: { max_age: 86_400 },
    });
  } catch (err) {
    throw fromApi(err, RpcErrorCode.INVALID_PERMISSIONS);
  }
  await s.host.ui.showInvite(`${s.host.origin}/invite/${invite.code}`);
  return null;
};
