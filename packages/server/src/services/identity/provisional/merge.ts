import type { Ctx } from '../../context.js';
import { Errors } from '../../../core/errors.js';
import type { ApplicationRecord, UserRecord } from '../../../store/records.js';
import { isAccountBanned } from '../account-bans.js';
import { getApplication } from '../applications.js';
import { getUser } from '../users.js';
import { revokeAuthorization } from '../oauth2/grants.js';
import { moveAllRelationships, carryToProvisional } from '../../social/relationships/migrate.js';
import { moveLobbyMemberships } from '../../social/lobbies/sessions.js';
import { moveDirectMessages } from '../../social/game-dms/dms.js';
import { createProvisionalUser, findIdentity, identitiesOfUser, linkIdentity, provisionalAccount, type IdentityRow } from './accounts.js';
import { ProvisionalErrors as PE } from './errors.js';
import { resolveExternalAuth } from './identity.js';

/**
 * Merging and unmerging.
 *
 * Merge (POST /oauth2/token with `external_auth_type` / `external_auth_token` beside a code or device grant): the
 * provisional account of the external identity becomes part of the platform account that just authorized. Its
 * identities, friends and game friends, lobby memberships and DMs move over; the provisional user is deleted (its
 * tokens die with it); both accounts' sessions get USER_MERGE_OPERATION_COMPLETED. An identity without a provisional
 * account yet is simply linked. Refused: a source that is a platform account (530014), a provisional destination
 * (530016), and a restricted source whose banned account is still banned (530017).
 *
 * Unmerge (the partner-sdk unmerge routes, and any revocation of an SDK app: token revoke, the user removing the
 * app, a ban): the identities of that app leave the platform account for a new provisional account (new id) that
 * carries the display name, the app's game friends, the Discord friends who play it, the blocks and the app's lobbies
 * — not the DM history. The platform account's tokens for the app are revoked (APPLICATION_DEAUTHORIZED).
 */

export interface MergeResult {
  merge_operation_id: string;
  source_user_id: string;
  destination_user_id: string;
}

export async function mergeProvisional(ctx: Ctx, app: ApplicationRecord, destination: UserRecord, type: unknown, token: unknown): Promise<MergeResult | null> {
  const ident = await resolveExternalAuth(ctx, app.id, type, token);
  if (await provisionalAccount(ctx, destination.id)) throw PE.destinationProvisional();
  const row = await findIdentity(ctx, app.id, ident.type, ident.externalId);
  if (!row) {
    await linkIdentity(ctx, app.id, ident, destination.id);
    return null;
  }
  if (row.userId === destination.id) return null;
  const source = await provisionalAccount(ctx, row.userId);
  if (!source) throw PE.invalidMergeSource();
  if (source.bannedUserId && (await isAccountBanned(ctx, source.bannedUserId))) throw PE.mergeSourceBanned();
  return absorb(ctx, row.userId, destination.id, app.id);
}

/** Everything of the provisional `from` becomes `to`'s; `from` is deleted. */
async function absorb(ctx: Ctx, from: string, to: string, appId: string): Promise<MergeResult> {
  const operation = ctx.ids.next();
  await ctx.repos.provisional.moveAllIdentities(from, to);
  await moveAllRelationships(ctx, from, to);
  await moveLobbyMemberships(ctx, from, to, null);
  await moveDirectMessages(ctx, from, to);
  await deleteUserCompletely(ctx, from);
  const d = { merge_operation_id: operation, source_user_id: from, destination_user_id: to, application_id: appId };
  ctx.bus.publish({ t: 'USER_MERGE_OPERATION_COMPLETED', d, user_ids: [to, from] });
  ctx.bus.publish({ t: '__USER_SESSIONS_INVALIDATED', d: { user_id: from } });
  return { merge_operation_id: operation, source_user_id: from, destination_user_id: to };
}

/** A provisional user goes for good: tokens, codes, grants, its row. */
async function deleteUserCompletely(ctx: Ctx, userId: string): Promise<void> {
  await ctx.repos.provisional.deleteUserCompletely(userId);
  ctx.bus.publish({ t: '__TOKENS_CHANGED', d: { user_id: userId } });
}

/**
 * Moves a platform account's identities of an app to a new provisional account (restricted when `bannedUserId`
 * is set). Returns the new account, or null when the account had none of the app's identities.
 */
export async function splitOff(ctx: Ctx, appId: string, full: UserRecord, identities: IdentityRow[], bannedUserId: string | null): Promise<UserRecord | null> {
  if (!identities.length) return null;
  const name = identities.find((i) => i.username)?.username ?? full.global_name ?? full.username;
  const prov = await createProvisionalUser(ctx, appId, { hint: name, globalName: name.slice(0, 32), bannedUserId });
  for (const i of identities) {
    await ctx.repos.provisional.moveIdentity(appId, i.providerType, i.externalId, prov.id);
  }
  await carryToProvisional(ctx, appId, full.id, prov.id);
  await moveLobbyMemberships(ctx, full.id, prov.id, appId);
  return prov;
}

/** Unmerges the platform account behind an external identity (50229 when it is provisional itself). */
export async function unmergeIdentity(ctx: Ctx, app: ApplicationRecord, row: IdentityRow | null): Promise<void> {
  if (!row) throw Errors.unknownUser();
  if (await provisionalAccount(ctx, row.userId)) throw PE.unmergeProvisional();
  const full = await getUser(ctx, row.userId);
  if (!full) throw Errors.unknownUser();
  await splitOff(ctx, app.id, full, await identitiesOfUser(ctx, full.id, app.id), null);
  await revokeAuthorization(ctx, app.id, full);
}

/** Unmerge by the player's external auth (public route) or by the backend's external user id (bot route). */
export async function unmergeByExternalAuth(ctx: Ctx, app: ApplicationRecord, type: unknown, token: unknown): Promise<void> {
  const ident = await resolveExternalAuth(ctx, app.id, type, token);
  await unmergeIdentity(ctx, app, await findIdentity(ctx, app.id, ident.type, ident.externalId));
}

/**
 * A revocation of an SDK app by a platform account (token revoke, the user removing the app): every revocation
 * of such an app is an unmerge. Called after the grant was revoked; does nothing for accounts without identities.
 */
export async function unmergeAfterRevocation(ctx: Ctx, applicationId: string, userId: string): Promise<void> {
  if (await provisionalAccount(ctx, userId)) return;
  const full = await getUser(ctx, userId);
  const app = await getApplication(ctx, applicationId);
  if (!full || !app) return;
  await splitOff(ctx, app.id, full, await identitiesOfUser(ctx, full.id, app.id), null);
}
