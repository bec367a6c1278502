import type { Command } from '../rpc/core.js';
import { buildActivity } from '../rpc/activity.js';
import { RpcError, RpcErrorCode } from '../rpc/codes.js';
import { num, obj, required, str } from '../rpc/schema.js';
import { LOCAL_SCOPE, S } from '../rpc/scopes.js';

/**
 * SET_ACTIVITY (rpc, rpc.activities.write, or a local connection): validates and normalises the activity, then the
 * person's presence carries it (Gateway op 3). No activity (or null) clears it and answers null.
 */
export const setActivity: Command = {
  scope: { any: [S.RPC, S.RPC_ACTIVITIES_WRITE, LOCAL_SCOPE] },
  run({ core, socket, args }) {
    const built = buildActivity(args, socket.app, Date.now());
    if (socket.transport.kind === 'ipc' && (args?.pid === undefined || args?.pid === null)) {
      throw new RpcError(RpcErrorCode.INVALID_COMMAND, 'nonzero pid required');
    }
    core.setActivity(socket, built);
    return built ? built.echo : null;
  },
};

const userArg = obj({ user_id: required(str({ max: 32 })) });

/**
 * SEND_ACTIVITY_JOIN_INVITE (answering an Ask to Join): the other person gets an invite to the app's activity, which
 * needs a party and a join secret (5006 otherwise, as on the platform). The request is then settled.
 */
export const sendActivityJoinInvite: Command = {
  scope: { any: [S.RPC, LOCAL_SCOPE] },
  validation: userArg,
  async run(ctx) {
    await ctx.core.invites.send(ctx.socket, ctx.args.user_id);
    ctx.core.joinRequests.delete(`${ctx.socket.app.id}:${ctx.args.user_id}`);
    return null;
  },
};

/** ACTIVITY_INVITE_USER (the game SDK's SendInvite): invites someone to the app's activity, with an optional message. */
export const activityInviteUser: Command = {
  scope: { any: [S.RPC, LOCAL_SCOPE] },
  validation: obj({ user_id: required(str({ max: 32 })), type: num({ min: 1, max: 1 }), content: str({ max: 1024 }), pid: num({}) }),
  async run(ctx) {
    await ctx.core.invites.send(ctx.socket, ctx.args.user_id, ctx.args.content);
    return null;
  },
};

/** ACCEPT_ACTIVITY_INVITE (the game SDK's AcceptInvite): takes an invite offered as ACTIVITY_INVITE; ACTIVITY_JOIN follows. */
export const acceptActivityInvite: Command = {
  scope: { any: [S.RPC, LOCAL_SCOPE] },
  validation: obj({
    message_id: required(str({ max: 32 })),
    channel_id: str({ max: 32 }),
    user_id: str({ max: 32 }),
    type: num({}),
    session_id: str({ max: 128 }),
  }),
  async run(ctx) {
    await ctx.core.invites.accept(ctx.socket.app.id, ctx.args.message_id);
    return null;
  },
};

/** CLOSE_ACTIVITY_REQUEST (also sent as CLOSE_ACTIVITY_JOIN_REQUEST): dismisses an Ask to Join request. */
export const closeActivityRequest: Command = {
  scope: { any: [S.RPC, LOCAL_SCOPE] },
  validation: userArg,
  async run(ctx) {
    ctx.core.joinRequests.delete(`${ctx.socket.app.id}:${ctx.args.user_id}`);
    return null;
  },
};
