import { z } from 'zod';
import { Routes, noContent } from '../router.js';
import { parseBody } from '../../core/validation.js';
import { acceptTesterInvite, inviteTester, leaveTesting, listTesters, removeTester, testedApplications } from '../../services/identity/app-testers.js';
import { appTester, testedApplication } from '../../wire/app-tester.js';

const InviteBody = z.object({ username: z.string().trim().min(2).max(32) });

/** App testers: the owner's list in the portal, and the invitee's side (accept, decline or leave). */
export default new Routes()
  .get('/applications/{application_id}/testers', 'user', async ({ ctx, actor, params }) =>
    (await listTesters(ctx, actor, params.application_id)).map((t) => appTester(t.tester, t.user)),
  )
  .post('/applications/{application_id}/testers', 'user', async ({ ctx, actor, params, body }) => {
    const t = await inviteTester(ctx, actor, params.application_id, parseBody(InviteBody, body).username);
    return appTester(t.tester, t.user);
  })
  .delete('/applications/{application_id}/testers/{user_id}', 'user', async ({ ctx, actor, params }) => {
    await removeTester(ctx, actor, params.application_id, params.user_id);
    return noContent();
  })
  .get('/users/@me/tested-applications', 'user', async ({ ctx, actor }) =>
    (await testedApplications(ctx, actor)).map((t) => testedApplication(t.tester, t.app)),
  )
  .put('/users/@me/tested-applications/{application_id}', 'user', async ({ ctx, actor, params }) => {
    await acceptTesterInvite(ctx, actor, params.application_id);
    return noContent();
  })
  .delete('/users/@me/tested-applications/{application_id}', 'user', async ({ ctx, actor, params }) => {
    await leaveTesting(ctx, actor, params.application_id);
    return noContent();
  });
