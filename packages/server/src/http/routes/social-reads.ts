import { Routes, noContent } from '../router.js';
import { Errors } from '../../core/errors.js';
import { isId } from '../../core/ids.js';
import { guildChannelsForSdk } from '../../services/social/lobbies/channels.js';
import { applicationProfiles } from '../../services/identity/provisional/accounts.js';

/** The Social SDK's extra routes: linkable guild channels, application profiles, and AUTHORIZE_REQUEST from the platform's client. */
export default new Routes()
  .get('/users/@me/guilds/{guild_id}/channels', 'any', async ({ ctx, actor, params }) => guildChannelsForSdk(ctx, actor, params.guild_id))
  .get('/users/{user_id}/application-profiles', 'any', async ({ ctx, actor, params }) => {
    if (!actor.applicationId) throw Errors.unauthorized();
    const userId = params.user_id === '@me' ? actor.user.id : params.user_id;
    if (!isId(userId)) throw Errors.unknownUser();
    return applicationProfiles(ctx, userId, actor.applicationId);
  })
  // The platform's client asks a game to start Authorize (the SDK's AUTHORIZE_REQUEST, to the user's SDK sessions).
  .post('/users/@me/applications/{application_id}/authorize-request', 'user', async ({ ctx, actor, params }) => {
    if (!isId(params.application_id)) throw Errors.unknownApplication();
    ctx.bus.publish({ t: 'AUTHORIZE_REQUEST', d: { application_id: params.application_id }, user_ids: [actor.user.id] });
    return noContent();
  });
