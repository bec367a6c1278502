import { z } from 'zod';
import { Routes } from '../router.js';
import { parseBody, permissionString, snowflake } from '../validation.js';
import { fieldError } from '../../core/errors.js';
import { installBot } from '../../services/bot-install.js';

const AuthorizeBody = z.object({
  authorize: z.boolean(),
  guild_id: snowflake.optional(),
  permissions: permissionString.optional(),
  integration_type: z.number().int().min(0).max(1).optional(),
});

/** The consent screen's answer. The bot scope installs the app's bot into the chosen guild. */
export default new Routes()
  .post('/oauth2/authorize', 'user', async ({ ctx, actor, body, query }) => {
    const b = parseBody(AuthorizeBody, body);
    const clientId = typeof query.client_id === 'string' ? query.client_id : '';
    if (!/^\d{1,20}$/.test(clientId)) throw fieldError('client_id', 'BASE_TYPE_REQUIRED', 'This field is required');
    const scopes = String(query.scope ?? '').split(/[\s+]+/).filter(Boolean);
    const redirect = typeof query.redirect_uri === 'string' ? query.redirect_uri : `${ctx.publicUrl}/oauth2/authorized`;
    if (!b.authorize) return { location: `${redirect}?error=access_denied&error_description=The+resource+owner+or+authorization+server+denied+the+request` };
    if (scopes.includes('bot')) {
      if (!b.guild_id) throw fieldError('guild_id', 'BASE_TYPE_REQUIRED', 'This field is required');
      const perms = BigInt(b.permissions ?? (typeof query.permissions === 'string' && /^\d+$/.test(query.permissions) ? query.permissions : '0'));
      await installBot(ctx, actor, { clientId, guildId: b.guild_id, permissions: perms });
      return { location: `${ctx.publicUrl}/oauth2/authorized` };
    }
    throw fieldError('scope', 'SCOPE_INVALID', 'Unsupported scope for this server yet.');
  });
