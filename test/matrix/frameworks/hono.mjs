/**
 * Hono on Node (`@hono/node-server`): the Fetch handler gets `c.req.raw`, the request as it arrived, with its
 * body unread (no `c.req.json()` before it).
 */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { RESULT_PREFIX, runSmoke, webhookHandler } from '../smoke.mjs';

const app = new Hono();
app.all('/webhook', (c) => webhookHandler(c.req.raw));
app.post('/other', async (c) => c.json(await c.req.json()));

const server = await new Promise((resolve) => {
  const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
});
try {
  const results = await runSmoke(JSON.parse(process.env.WFA_MATRIX), { receiverUrl: `http://127.0.0.1:${server.address().port}/webhook` });
  console.log(RESULT_PREFIX + JSON.stringify(results));
} finally {
  server.close();
}
