import { Routes } from '../router.js';

/** Gateway discovery. The gateway listens on the API's own port; URLs are bare so clients can append queries. */
export default new Routes()
  .get('/gateway', 'none', async ({ ctx }) => ({ url: ctx.publicUrl.replace(/^http/, 'ws') }))
  .get('/gateway/bot', 'bot', async ({ ctx }) => ({
    url: ctx.publicUrl.replace(/^http/, 'ws'),
    shards: 1,
    session_start_limit: { total: 1000, remaining: 999, reset_after: 14_400_000, max_concurrency: 1 },
  }));
