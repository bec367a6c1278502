import type { Ctx, Actor } from '../services/context.js';
import { register } from '../services/identity/users.js';
import { createGuild } from '../services/guilds/create.js';
import { createApplication, resetBotToken, updateApplication, APP_FLAGS } from '../services/identity/applications.js';
import { installBot } from '../services/identity/bot-install.js';
import { addMember } from '../services/guilds/membership.js';
import { ALL_PERMISSIONS, P } from '@accord/protocol';
import { randomBytes } from '../core/random.js';

export interface SeedWorld {
  guildId: string;
  textChannelId: string;
  voiceChannelId: string;
  applicationId: string;
  botUserId: string;
  botToken: string;
  users: { id: string; username: string; token: string; password: string }[];
}

/**
 * A dev world: two users, a guild with text and voice channels, and an app whose bot is installed with every
 * permission but ADMINISTRATOR and all privileged intents on. Names get a suffix when the world already exists.
 */
export async function seedWorld(ctx: Ctx): Promise<SeedWorld> {
  const suffix = randomBytes(2).toString('hex');
  const users = [];
  for (const name of ['alice', 'bob']) {
    const password = `password-${name}`;
    const username = `${name}_${suffix}`;
    const { token, user } = await register(ctx, { username, globalName: name[0].toUpperCase() + name.slice(1), email: `${username}@accord.local`, password });
    users.push({ id: user.id, username, token, password, record: user });
  }
  const owner: Actor = { user: users[0].record, kind: 'user', applicationId: null, scopes: [] };
  const guildId = await createGuild(ctx, owner.user, { name: 'Accord Dev' });
  await addMember(ctx, guildId, users[1].id);
  const app = await createApplication(ctx, owner, { name: 'Dev Bot' });
  const flags = APP_FLAGS.GATEWAY_GUILD_MEMBERS_LIMITED | APP_FLAGS.GATEWAY_MESSAGE_CONTENT_LIMITED | APP_FLAGS.GATEWAY_PRESENCE_LIMITED;
  await updateApplication(ctx, app, { flags: Number(flags) });
  const botToken = await resetBotToken(ctx, app);
  await installBot(ctx, owner, { clientId: app.id, guildId, permissions: ALL_PERMISSIONS & ~P.ADMINISTRATOR });
  const channels = await ctx.repos.channels.idsAndTypesByPosition(guildId);
  return {
    guildId,
    textChannelId: channels.find((c) => c.type === 0)!.id,
    voiceChannelId: channels.find((c) => c.type === 2)!.id,
    applicationId: app.id,
    botUserId: app.bot_user_id!,
    botToken,
    users: users.map(({ record: _r, ...u }) => u),
  };
}
