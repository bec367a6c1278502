import { Routes } from '../router.js';
import { gatewayUrl } from '../../core/gateway-url.js';

/** Gateway discovery. The gateway listens on the API's own port; URLs are bare so clients can append queries. */
export default new Routes()
  .get('/gateway', 'none', async ({ ctx }) => ({ url: gatewayUrl(ctx.publicUrl) }))
  .get('/gateway/bot', 'bot', async ({ ctx }) => ({
    url: gatewayUrl(ctx.publicUrl),
    shards: 1,
    session_start_limit: { total: 1000, remaining: 999, reset_after: 14_400_000, max_concurrency: 1 },
  }));
