/**
 * The smoke suite in a server runtime (Node, Bun, Deno): serves the webhook handler the runtime's own way on
 * 127.0.0.1, a free port, runs the suite, and prints one result line for `run.mjs`.
 */
import { toNodeHandler } from 'workflow-automation-sdk/webhooks';
import { RESULT_PREFIX, runSmoke, webhookHandler } from './smoke.mjs';

const config = JSON.parse(globalThis.Deno ? Deno.env.get('WFA_MATRIX') : process.env.WFA_MATRIX);

async function serve() {
  if (globalThis.Bun) {
    const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: webhookHandler });
    return { url: `http://127.0.0.1:${server.port}/webhook`, close: () => server.stop(true) };
  }
  if (globalThis.Deno) {
    const { promise, resolve } = Promise.withResolvers();
    const server = Deno.serve({ hostname: '127.0.0.1', port: 0, onListen: resolve }, webhookHandler);
    const { port } = await promise;
    return { url: `http://127.0.0.1:${port}/webhook`, close: () => server.shutdown() };
  }
  const { createServer } = await import('node:http');
  const server = createServer(toNodeHandler(webhookHandler));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/webhook`, close: () => server.close() };
}

const receiver = await serve();
try {
  const results = await runSmoke(config, { receiverUrl: receiver.url });
  console.log(RESULT_PREFIX + JSON.stringify(results));
} finally {
  await receiver.close();
}
