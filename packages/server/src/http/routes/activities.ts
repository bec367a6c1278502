import { z } from 'zod';
import { Routes, noContent } from '../router.js';
import { parseBody } from '../../core/validation.js';
import { Errors } from '../../core/errors.js';
import { requireOwnedApplication } from '../../services/identity/applications.js';
import { instanceForApp, leaveInstance, userLaunch } from '../../services/activities/instances.js';
import { mintProxyTicket } from '../../services/activities/proxy-ticket.js';
import { proxyOrigin } from '../../services/activities/origins.js';
import {
  EmbeddedConfigPatch,
  ProxyConfigPatch,
  embeddedConfigWire,
  patchEmbeddedConfig,
  patchProxyConfig,
  proxyConfigWire,
} from '../../services/activities/settings.js';

const LaunchBody = z.object({ session_id: z.string().min(1).max(200), nonce: z.string().max(64).nullish() });
const LeaveBody = z.object({ session_id: z.string().min(1).max(200).nullish() });

/**
 * Activities: a person launches or joins an app's Activity in a channel and leaves it; the app reads an instance;
 * the owner edits the Activity settings (the portal's routes). EMBEDDED_ACTIVITY_UPDATE_V2 tells clients the rest.
 */
export default new Routes()
  .post('/activities/{channel_id}/{application_id}', 'user', async ({ ctx, actor, params, body }) => {
    await userLaunch(ctx, actor.user.id, params.channel_id, params.application_id, parseBody(LaunchBody, body));
    return noContent();
  })
  .post('/applications/{application_id}/activities/{location_id}/instances/{instance_id}/leave', 'user', async ({ ctx, actor, params, body }) => {
    const b = parseBody(LeaveBody, body);
    await leaveInstance(ctx, actor.user.id, params.instance_id, b.session_id ?? undefined, params.application_id);
    return {};
  })
  .get('/applications/{application_id}/activity-instances/{instance_id}', 'bot', async ({ ctx, actor, params }) => {
    if (actor.applicationId !== params.application_id) throw Errors.missingAccess();
    return instanceForApp(ctx, params.application_id, params.instance_id);
  })
  // Accord: a participant's signed proxy ticket (the client's side of REQUEST_PROXY_TICKET_REFRESH), and the origin
  // of the app's Activity on the proxy host, where the client frames its bridge page.
  .post('/applications/{application_id}/activity-instances/{instance_id}/proxy-ticket', 'user', async ({ ctx, actor, params }) => ({
    ticket: await mintProxyTicket(ctx, actor.user.id, params.application_id, params.instance_id),
    origin: proxyOrigin(ctx, params.application_id),
  }))
  .get('/applications/{application_id}/embedded-activity-config', 'any', async ({ ctx, actor, params }) =>
    embeddedConfigWire(await requireOwnedApplication(ctx, actor, params.application_id)),
  )
  .patch('/applications/{application_id}/embedded-activity-config', 'any', async ({ ctx, actor, params, body }) => {
    const app = await requireOwnedApplication(ctx, actor, params.application_id);
    return embeddedConfigWire(await patchEmbeddedConfig(ctx, app, parseBody(EmbeddedConfigPatch, body)));
  })
  .get('/applications/{application_id}/proxy-config', 'any', async ({ ctx, actor, params }) =>
    proxyConfigWire(await requireOwnedApplication(ctx, actor, params.application_id)),
  )
  .patch('/applications/{application_id}/proxy-config', 'any', async ({ ctx, actor, params, body }) => {
    const app = await requireOwnedApplication(ctx, actor, params.application_id);
    return proxyConfigWire(await patchProxyConfig(ctx, app, parseBody(ProxyConfigPatch, body)));
  });
