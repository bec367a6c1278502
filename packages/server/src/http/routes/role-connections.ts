import { Routes, noContent } from '../router.js';
import {
  deleteUserConnection,
  getMetadataRecords,
  getUserConnection,
  putMetadataRecords,
  putUserConnection,
} from '../../services/identity/role-connections.js';

/**
 * Linked roles: the app's role-connection metadata records (its bot or owner) and the user's role connection to an
 * app (OAuth2 `role_connections.write`, or the user's own token; bots are refused).
 */
export default new Routes()
  .get('/applications/{application_id}/role-connections/metadata', 'any', async ({ ctx, actor, params }) =>
    getMetadataRecords(ctx, actor, params.application_id),
  )
  .put('/applications/{application_id}/role-connections/metadata', 'any', async ({ ctx, actor, params, body }) =>
    putMetadataRecords(ctx, actor, params.application_id, body),
  )
  .get('/users/@me/applications/{application_id}/role-connection', 'user', async ({ ctx, actor, params }) =>
    getUserConnection(ctx, actor, params.application_id),
  )
  .put('/users/@me/applications/{application_id}/role-connection', 'user', async ({ ctx, actor, params, body }) =>
    putUserConnection(ctx, actor, params.application_id, body),
  )
  .delete('/users/@me/applications/{application_id}/role-connection', 'user', async ({ ctx, actor, params }) => {
    await deleteUserConnection(ctx, actor, params.application_id);
    return noContent();
  });
