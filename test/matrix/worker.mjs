/**
 * The smoke suite in Cloudflare's workerd (bundled by run.mjs, served by miniflare): `GET /run` runs it with
 * this worker's own `/webhook` as the receiver; code generation is forbidden here, which the suite checks.
 */
import { runSmoke, webhookHandler } from './smoke.mjs';

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname === '/webhook') return webhookHandler(request);
    if (url.pathname !== '/run') return new Response('not found', { status: 404 });
    const config = { ...JSON.parse(env.WFA_MATRIX), codegenBlocked: true };
    return Response.json(await runSmoke(config, { receiverUrl: new URL('/webhook', url).href }));
  },
};
