import type { Actor, Ctx } from '../context.js';
import type { ApplicationRecord, UserRecord } from '../../store/records.js';
import type { AppTester } from '../../store/repos/applications.js';
import { Errors, fieldError } from '../../core/errors.js';
import { isTeamMember, requireOwnedApplication } from './applications.js';

/**
 * App testers (the portal's "App Testers"): the owner invites people by username; once they accept, they see the
 * app as its developers do while it is in development (its Activity in the launcher of their small servers), without
 * the team's rights (no settings, no team discount). An invitation is only a row: nobody is told until they look.
 */

export const MAX_APP_TESTERS = 50;

export type TesterOf = { tester: AppTester; user: UserRecord };
export type TestedApp = { tester: AppTester; app: ApplicationRecord };

export async function listTesters(ctx: Ctx, actor: Actor, appId: string): Promise<TesterOf[]> {
  await requireOwnedApplication(ctx, actor, appId);
  return withUsers(ctx, await ctx.repos.applications.testers(appId));
}

/** Invites a person by username (again: the existing entry, unchanged). */
export async function inviteTester(ctx: Ctx, actor: Actor, appId: string, username: string): Promise<TesterOf> {
  const app = await requireOwnedApplication(ctx, actor, appId);
  const userId = await ctx.repos.users.idByName(username, null);
  if (!userId) throw Errors.unknownUser();
  if (isTeamMember(app, userId)) throw fieldError('username', 'APP_TESTER_IS_DEVELOPER', "The app's developers test it already.");
  const apps = ctx.repos.applications;
  const testers = await apps.testers(appId);
  let tester = testers.find((t) => t.user_id === userId) ?? null;
  if (!tester) {
    if (testers.length >= MAX_APP_TESTERS) throw fieldError('username', 'APP_TESTERS_MAX', `An app has at most ${MAX_APP_TESTERS} testers.`);
    await apps.inviteTester(appId, userId, ctx.clock.now());
    tester = await apps.tester(appId, userId);
  }
  const user = await ctx.repos.users.byId(userId);
  if (!tester || !user) throw Errors.unknownUser(); // removed or gone in between
  return { tester, user };
}

/** The owner removes a tester or an invitation (10013 when the person is neither). */
export async function removeTester(ctx: Ctx, actor: Actor, appId: string, userId: string): Promise<void> {
  await requireOwnedApplication(ctx, actor, appId);
  if (!(await ctx.repos.applications.removeTester(appId, userId))) throw Errors.unknownUser();
}

/** A tester leaves, or an invitee declines (10002 when they were neither). */
export async function leaveTesting(ctx: Ctx, actor: Actor, appId: string): Promise<void> {
  if (actor.kind !== 'user') throw Errors.botsCannotUse();
  if (!(await ctx.repos.applications.removeTester(appId, actor.user.id))) throw Errors.unknownApplication();
}

/** The apps a person tests or is invited to test. */
export async function testedApplications(ctx: Ctx, actor: Actor): Promise<TestedApp[]> {
  if (actor.kind !== 'user') throw Errors.botsCannotUse();
  const rows = await ctx.repos.applications.testedBy(actor.user.id);
  const apps = await ctx.repos.applications.listByIds(rows.map((r) => r.application_id));
  const byId = new Map(apps.map((a) => [a.id, a]));
  return rows.flatMap((tester) => {
    const app = byId.get(tester.application_id);
    return app ? [{ tester, app }] : [];
  });
}

/** Accepts an invitation (accepting again changes nothing); 10002 when there is none for this person. */
export async function acceptTesterInvite(ctx: Ctx, actor: Actor, appId: string): Promise<void> {
  if (actor.kind !== 'user') throw Errors.botsCannotUse();
  if (!(await ctx.repos.applications.acceptTester(appId, actor.user.id))) throw Errors.unknownApplication();
}

/** Whether this person works on the app while it is in development: its team, or a tester who accepted. */
export async function developsOrTests(ctx: Ctx, app: ApplicationRecord, userId: string): Promise<boolean> {
  return isTeamMember(app, userId) || (await ctx.repos.applications.tester(app.id, userId))?.state === 2;
}

/** The ids of the apps a person tests (accepted invitations only). */
export async function appIdsTestedBy(ctx: Ctx, userId: string): Promise<string[]> {
  return (await ctx.repos.applications.testedBy(userId)).filter((t) => t.state === 2).map((t) => t.application_id);
}

async function withUsers(ctx: Ctx, testers: AppTester[]): Promise<TesterOf[]> {
  const users = await ctx.repos.users.byIds(testers.map((t) => t.user_id));
  return testers.flatMap((tester) => {
    const user = users.get(tester.user_id);
    return user ? [{ tester, user }] : [];
  });
}
