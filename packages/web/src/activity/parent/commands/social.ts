import { RpcError, RpcErrorCode, invalidPayload } from '../protocol.js';
import { relationshipActivity, sdkUser } from '../shapes.js';
import { fromApi, isSnowflake, requireScopes, str, type Handler, type Session } from '../session.js';

/** The people around the Activity: rich presence, share links, relationships, invites, shared commands and moments. */

/** Activity types SET_ACTIVITY accepts: Playing, Listening, Watching, Competing. */
const ACTIVITY_TYPES = new Set([0, 2, 3, 5]);
const INSTANCE_FLAG = 1;

const isUrl = (v: unknown, max = 256) => typeof v === 'string' && /^https?:\/\/\S+$/.test(v) && v.length <= max;

function pickStrings(src: any, keys: string[], max: number, urls: string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  if (src === undefined || src === null) return out;
  if (typeof src !== 'object') throw invalidPayload('expected an object');
  for (const k of keys) {
    const v = src[k];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string' || v.length > max || (urls.includes(k) && !isUrl(v))) throw invalidPayload(k);
    out[k] = v;
  }
  return out;
}

/** The activity as the Gateway stores it and as SET_ACTIVITY answers it (the SDK's Activity schema). */
function buildActivity(s: Session, a: any): Record<string, unknown> {
  if (typeof a !== 'object' || Array.isArray(a)) throw invalidPayload('activity');
  const type = a.type ?? 0;
  if (!ACTIVITY_TYPES.has(type)) throw invalidPayload('activity.type must be 0, 2, 3 or 5');
  const out: Record<string, unknown> = {
    name: s.host.application().name,
    type,
    application_id: s.clientId,
    created_at: Date.now(),
    ...pickStrings(a, ['state', 'details', 'state_url', 'details_url'], 128, ['state_url', 'details_url']),
  };
  if (a.timestamps != null) {
    const t: Record<string, number> = {};
    for (const k of ['start', 'end']) {
      if (a.timestamps[k] == null) continue;
      if (typeof a.timestamps[k] !== 'number') throw invalidPayload(`activity.timestamps.${k}`);
      t[k] = a.timestamps[k];
    }
    out.timestamps = t;
  }
  if (a.assets != null)
    out.assets = pickStrings(a.assets, ['large_image', 'large_text', 'small_image', 'small_text', 'large_url', 'small_url'], 256, ['large_url', 'small_url']);
  if (a.party != null) {
    const party: Record<string, unknown> = pickStrings(a.party, ['id'], 128);
    if (a.party.size != null) {
      const size = a.party.size;
      if (!Array.isArray(size) || size.length !== 2 || !size.every((n: unknown) => Number.isInteger(n) && (n as number) > 0))
        throw invalidPayload('activity.party.size');
      party.size = size;
    }
    out.party = party;
  }
  if (a.secrets != null) out.secrets = pickStrings(a.secrets, ['join', 'match'], 128);
  if (a.instance != null) {
    if (typeof a.instance !== 'boolean') throw invalidPayload('activity.instance');
    out.instance = a.instance;
    out.flags = a.instance ? INSTANCE_FLAG : 0;
  }
  return out;
}

export const setActivity: Handler = async (s, args) => {
  requireScopes(s, 'rpc.activities.write');
  if (args.activity === null) {
    s.host.setPresence(null);
    return { name: s.host.application().name, type: 0, application_id: s.clientId };
  }
  const activity = buildActivity(s, args.activity);
  s.host.setPresence(activity);
  return activity;
};

/** The link a share opens: the platform's /activities/<app> page, with the sharer as referrer. */
export function shareUrl(s: Session, opts: { customId?: string; linkId?: string }): string {
  const q = new URLSearchParams();
  if (opts.linkId) q.set('link_id', opts.linkId);
  if (opts.customId) q.set('custom_id', opts.customId);
  q.set('referrer_id', s.host.me().id);
  return `${s.host.origin}/activities/${s.clientId}?${q.toString()}`;
}

export const shareLink: Handler = async (s, args) => {
  const message = str(args, 'message', { max: 1000 })!;
  // referrer_id was removed from the command in 2.0: the referrer is always the person sharing.
  const url = shareUrl(s, { customId: str(args, 'custom_id', { max: 64, optional: true }), linkId: str(args, 'link_id', { max: 64, optional: true }) });
  const choice = await s.host.ui.shareLink({ message, url });
  if (choice === 'send') {
    try {
      await s.host.api.request('POST', `/channels/${s.host.launch.channelId}/messages`, { body: { content: `${message}\n${url}` } });
    } catch (err) {
      throw fromApi(err, RpcErrorCode.INVALID_PERMISSIONS);
    }
    return { success: true, didCopyLink: false, didSendMessage: true };
  }
  return { success: choice === 'copied', didCopyLink: choice === 'copied', didSendMessage: false };
};

export const getRelationships: Handler = async (s) => {
  requireScopes(s, 'relationships.read');
  let list: { type: number; user: any }[];
  try {
    list = await s.host.api.request('GET', '/users/@me/relationships');
  } catch (err) {
    throw fromApi(err);
  }
  return {
    relationships: list
      .filter((r) => r && r.user)
      .map((r) => {
        const p = s.host.presence(r.user.id);
        const activity = p ? relationshipActivity(p.activities?.[0]) : null;
        return { type: r.type, user: sdkUser(r.user), ...(p ? { presence: { status: p.status, activity } } : {}) };
      }),
  };
};

export const inviteUserEmbedded: Handler = async (s, args) => {
  const userId = str(args, 'user_id');
  if (!isSnowflake(userId)) throw new RpcError(RpcErrorCode.INVALID_USER, 'Unknown user');
  const content = str(args, 'content', { max: 1024, optional: true }) ?? `Join me in ${s.host.application().name}!`;
  try {
    const dm = await s.host.api.request<{ id: string }>('POST', '/users/@me/channels', { body: { recipient_id: userId } });
    await s.host.api.request('POST', `/channels/${dm.id}/messages`, { body: { content: `${content}\n${shareUrl(s, {})}` } });
  } catch (err) {
    throw fromApi(err, RpcErrorCode.INVALID_USER);
  }
  return null;
};

/** Runs one of the app's commands as the person in the Activity's channel (the share's content is the command's). */
export const shareInteraction: Handler = async (s, args) => {
  const command = str(args, 'command', { max: 32 })!;
  const here = s.host.launch;
  const options = args.options ?? [];
  if (!Array.isArray(options) || !options.every((o: any) => o && typeof o.name === 'string' && typeof o.value === 'string')) throw invalidPayload('options');
  const index = await s.host.api
    .request<{ application_commands: any[] }>(
      'GET',
      here.guildId ? `/guilds/${here.guildId}/application-command-index` : `/channels/${here.channelId}/application-command-index`,
    )
    .catch(() => ({ application_commands: [] }));
  const cmd = index.application_commands.find((c) => c.application_id === s.clientId && c.name === command && (c.type ?? 1) === 1);
  if (!cmd) throw invalidPayload(`unknown command ${command}`);
  try {
    await s.host.api.request('POST', '/interactions', {
      body: {
        type: 2,
        application_id: s.clientId,
        channel_id: here.channelId,
        ...(here.guildId ? { guild_id: here.guildId } : {}),
        session_id: s.host.sessionId() ?? `activity-${here.frameId}`,
        nonce: String(Date.now()),
        data: {
          id: cmd.id,
          name: cmd.name,
          type: 1,
          version: cmd.version,
          options: (options as { name: string; value: string }[]).map((o) => ({ name: o.name, type: 3, value: o.value })),
        },
      },
    });
  } catch (err) {
    throw fromApi(err, RpcErrorCode.INVALID_PAYLOAD);
  }
  return { success: true };
};

export const openShareMomentDialog: Handler = async (s, args) => {
  const mediaUrl = str(args, 'mediaUrl', { max: 1024 })!;
  if (!isUrl(mediaUrl, 1024)) throw invalidPayload('mediaUrl');
  if (await s.host.ui.shareMoment(mediaUrl)) {
    try {
      await s.host.api.request('POST', `/channels/${s.host.launch.channelId}/messages`, { body: { content: mediaUrl } });
    } catch (err) {
      throw fromApi(err, RpcErrorCode.INVALID_PERMISSIONS);
    }
  }
  return null;
};
