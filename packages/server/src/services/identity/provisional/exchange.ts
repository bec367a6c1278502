import { z } from 'zod';
import type { Actor, Ctx } from '../../context.js';
import { Errors } from '../../../core/errors.js';
import { snowflake } from '../../../core/validation.js';
import type { ApplicationRecord } from '../../../store/records.js';
import { applicationOfBot, getApplication, verifyClientSecret } from '../applications.js';
import { updateUser } from '../users.js';
import { isPublicClient } from '../oauth2/clients.js';
import { createProvisionalUser, findIdentity, getUser, linkIdentity, provisionalAccount, provisionalTokens } from './accounts.js';
import { ProvisionalErrors as PE } from './errors.js';
import { BOT_ISSUED, resolveExternalAuth } from './identity.js';

/** Body of POST /partner-sdk/token and …/provisional-accounts/unmerge. */
export const ExternalAuthBody = z.object({
  client_id: snowflake,
  client_secret: z.string().max(1024).nullable().optional(),
  external_auth_type: z.string().max(64),
  external_auth_token: z.string().min(1).max(10240),
});
export const BotTokenBody = z.object({
  external_user_id: z.string().min(1).max(1024),
  preferred_global_name: z.string().min(1).max(32).nullable().optional(),
  provisional_user_id: snowflake.nullable().optional(),
});
export const BotUnmergeBody = z.object({ external_user_id: z.string().min(1).max(1024) });

/**
 * Who calls a public partner-sdk route for which app: a correct client secret, the app's own Bot token, or nothing
 * at all for a public client (the SDK in a game). Returns whether the caller is confidential.
 */
export async function partnerCaller(
  ctx: Ctx,
  actor: Actor | null,
  clientId: string,
  secret: string | null | undefined,
): Promise<{ app: ApplicationRecord; confidential: boolean }> {
  const app = await getApplication(ctx, clientId);
  if (!app) throw Errors.unknownApplication();
  if (secret) {
    if (!(await verifyClientSecret(ctx, app.id, secret))) throw PE.invalidClientSecret();
    return { app, confidential: true };
  }
  if (actor?.kind === 'bot') {
    const own = await applicationOfBot(ctx, actor.user.id);
    if (own?.id !== app.id) throw Errors.missingAccess();
    return { app, confidential: true };
  }
  if (!isPublicClient(app)) throw PE.invalidClientSecret();
  return { app, confidential: false };
}

/**
 * POST /partner-sdk/token: the provisional account of an external identity (made on first use), and its tokens.
 * An identity already merged into a platform account answers 530010: that player signs in through OAuth2.
 */
export async function partnerToken(ctx: Ctx, actor: Actor | null, body: z.infer<typeof ExternalAuthBody>) {
  const { app, confidential } = await partnerCaller(ctx, actor, body.client_id, body.client_secret);
  const ident = await resolveExternalAuth(ctx, app.id, body.external_auth_type, body.external_auth_token);
  const known = await findIdentity(ctx, app.id, ident.type, ident.externalId);
  let user = known ? await getUser(ctx, known.userId) : null;
  if (user && !(await provisionalAccount(ctx, user.id))) throw PE.notProvisional();
  if (!user) {
    user = await createProvisionalUser(ctx, app.id, { hint: ident.username, globalName: ident.username });
    await linkIdentity(ctx, app.id, ident, user.id);
  }
  return provisionalTokens(ctx, app, user, confidential);
}

/**
 * POST /partner-sdk/token/bot: the game backend vouches for a player by its own user id. `preferred_global_name`
 * names (or renames) the provisional account; `provisional_user_id` attaches the id to an existing provisional
 * account of the app.
 */
export async function botPartnerToken(ctx: Ctx, actor: Actor, body: z.infer<typeof BotTokenBody>) {
  const app = await applicationOfBot(ctx, actor.user.id);
  if (!app) throw Errors.unknownApplication();
  const ident = { type: BOT_ISSUED, externalId: body.external_user_id, username: body.preferred_global_name ?? null };
  const known = await findIdentity(ctx, app.id, BOT_ISSUED, ident.externalId);
  let user = known ? await getUser(ctx, known.userId) : null;
  if (!user && body.provisional_user_id) {
    const acct = await provisionalAccount(ctx, body.provisional_user_id);
    if (!acct || acct.applicationId !== app.id) throw Errors.unknownUser();
    user = await getUser(ctx, acct.userId);
    if (user) await linkIdentity(ctx, app.id, ident, user.id);
  }
  if (user && !(await provisionalAccount(ctx, user.id))) throw PE.notProvisional();
  if (!user) {
    user = await createProvisionalUser(ctx, app.id, { hint: ident.username, globalName: ident.username });
    await linkIdentity(ctx, app.id, ident, user.id);
  } else if (body.preferred_global_name && user.global_name !== body.preferred_global_name) {
    user = await updateUser(ctx, user, { global_name: body.preferred_global_name });
  }
  return provisionalTokens(ctx, app, user, true);
}
