/**
 * The smoke suite of the runtime matrix, written once: every runtime and framework runs these same checks
 * against the real HTTP mock service, importing the packed tarball. `run.mjs` starts the mock and reads the
 * results; each runtime's entry only serves `webhookHandler` its own way and passes the receiver's URL.
 */
import { AbortError, Client, NotFoundError, ResponseValidationError } from 'workflow-automation-sdk';
import { createWebhookHandler, hmacSha256, signWebhook, standardWebhooks } from 'workflow-automation-sdk/webhooks';

/** Workflow ids of the `build.completed` deliveries this process handled. */
export const handledWorkflowIds = new Set();

/** The receiver under test; it throws (so answers 500) unless the event is typed as the docs say. */
export const webhookHandler = createWebhookHandler({
  on: {
    'build.completed': (event) => {
      if (typeof event.workflow_id !== 'string' || !/^https?:\/\//.test(event.data.download_url)) {
        throw new Error(`unexpected event: ${JSON.stringify(event)}`);
      }
      handledWorkflowIds.add(event.workflow_id);
    },
  },
});

const WORKFLOW = {
  name: 'Matrix smoke',
  platform: 'zapier',
  trigger: { type: 'webhook', url: 'https://example.com/hook' },
  actions: [{ app: 'slack', action: 'send_message', config: { channel: '#builds' } }],
};

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

async function rejectsWith(promise, type, what) {
  const error = await promise.then(
    (value) => new Error(`${what}: resolved with ${JSON.stringify(value)}`),
    (e) => e,
  );
  assert(type.is(error) && error instanceof type, `${what}: expected ${type.name}, got ${error?.name}: ${error?.message}`);
}

async function control(config, path, body) {
  const response = await fetch(`${config.controlUrl}${path}`, { method: 'POST', body: JSON.stringify(body ?? {}) });
  assert(response.ok, `control ${path} answered ${response.status}`);
  return response.json();
}

/**
 * Runs every check and returns `[{ name, ok, error? }]`; it never throws.
 * `config`: `{ baseUrl, controlUrl, email, password, ordersPerUser, codegenBlocked? }` from `run.mjs`.
 * `receiverUrl`: where this runtime serves `webhookHandler`. `inProcess`: whether that handler runs here.
 */
/** The rows a run returns, and `check(name, fn)`, which adds one: ok, or the error `fn` threw. */
export function checker() {
  const results = [];
  const check = async (name, fn) => {
    try {
      await fn();
      results.push({ name, ok: true });
    } catch (error) {
      results.push({ name, ok: false, error: String(error?.stack ?? error) });
    }
  };
  return { results, check };
}

export async function runSmoke(config, { receiverUrl, inProcess = true }) {
  const { results, check } = checker();
  let client;
  let workflow;

  // Which transport this runtime's clients send through, as the client's debug log names it.
  let transport = 'unknown';
  const debug = (message) => {
    transport = /sending through the (\S+) transport/.exec(message)?.[1] ?? transport;
  };
  new Client({ baseUrl: config.baseUrl, apiKey: 'wfa_probe', logLevel: 'debug', logger: { debug, info() {}, warn() {}, error() {} } });
  results.push({ name: 'transport', ok: transport !== 'unknown', transport, error: 'the client logged no transport' });

  // Bundled (workerd) there is no import.meta.resolve: run.mjs checks the bundle's inputs instead.
  if (typeof import.meta.resolve === 'function') {
    await check('the SDK is the packed tarball from node_modules', () => {
      const resolved = import.meta.resolve('workflow-automation-sdk');
      assert(resolved.includes('/node_modules/workflow-automation-sdk/dist/'), `resolved to ${resolved}`);
    });
  }

  await check('log in with the demo user (Client.login)', async () => {
    client = await Client.login({ baseUrl: config.baseUrl, email: config.email, password: config.password, maxRetries: 0 });
    assert(client instanceof Client, 'Client.login did not resolve with a Client');
  });
  await check('create a workflow, wait for its build with progress', async () => {
    await control(config, '/webhook-url', { url: receiverUrl });
    workflow = await client.workflows.create(WORKFLOW);
    assert(typeof workflow.id === 'string' && typeof workflow.build_id === 'string', 'created workflow without id or build_id');
    const progress = [];
    const build = await client.waitForBuild(workflow, { intervalMs: 25, onProgress: (b) => progress.push(b.status) });
    assert(build.status === 'completed', `build ended ${build.status}`);
    assert(typeof build.download_url === 'string', 'completed build without download_url');
    assert(progress.length >= 1, 'onProgress was never called');
  });
  await check("download the build's artifact as a Web stream", async () => {
    const reader = (await client.builds.download(workflow.build_id, { maxRetries: 0 })).getReader();
    let bytes = 0;
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) bytes += chunk.value.byteLength;
    assert(bytes > 0, 'the artifact was empty');
  });
  await check('list across pages with for await', async () => {
    const ids = [];
    for await (const order of client.orders.list({ limit: 5 })) ids.push(order.id);
    assert(ids.length === config.ordersPerUser, `${ids.length} orders, expected ${config.ordersPerUser} over 3 pages`);
    assert(new Set(ids).size === ids.length, 'an order was listed twice');
  });
  await check('a 404 is a NotFoundError', () => rejectsWith(client.workflows.get('wf_missing'), NotFoundError, 'get(wf_missing)'));
  await check('an aborted call is an AbortError', async () => {
    const controller = new AbortController();
    const call = client.orders.list({ limit: 5 }, { signal: controller.signal });
    controller.abort();
    await rejectsWith(call, AbortError, 'list() aborted in flight');
  });
  const validation = config.codegenBlocked ? 'code generation is blocked, and an invalid response' : 'an invalid response';
  await check(`${validation} is a ResponseValidationError`, async () => {
    if (config.codegenBlocked) {
      let blocked = false;
      try {
        new Function('return 1')();
      } catch {
        blocked = true;
      }
      assert(blocked, 'this runtime was expected to forbid new Function()');
    }
    const invalid = new Client({ baseUrl: `${config.controlUrl}/invalid`, apiKey: 'wfa_test_invalid', maxRetries: 0 });
    await rejectsWith(invalid.workflows.get('wf_1'), ResponseValidationError, 'a workflow whose id is a number');
  });
  await check('webhook: a real delivery from the mock is answered 200', async () => {
    assert(workflow, 'no workflow was created');
    const deliveries = await control(config, '/deliveries');
    const mine = deliveries.filter((d) => d.payload.workflow_id === workflow.id);
    assert(mine.length === 1, `${mine.length} deliveries for ${workflow.id}: ${JSON.stringify(deliveries)}`);
    assert(mine[0].url === receiverUrl && mine[0].status === 200, `delivery: ${JSON.stringify(mine[0])}`);
    if (inProcess) assert(handledWorkflowIds.has(workflow.id), 'the handler did not see the event');
  });
  await check('webhook: a bad body is answered 400', async () => {
    const response = await fetch(receiverUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"event":' });
    await response.arrayBuffer();
    assert(response.status === 400, `answered ${response.status}`);
  });
  await check('webhook: signature presets (Web Crypto) accept a signed delivery and refuse a tampered or stale one', async () => {
    const body = JSON.stringify({ event: 'build.completed', workflow_id: 'wf_sig', data: { download_url: 'https://example.com/a.zip' } });
    for (const verify of [
      standardWebhooks({ secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }),
      hmacSha256({ secret: 's3cr3t', header: 'x-signature' }),
    ]) {
      const handler = createWebhookHandler({ verify, on: {} });
      const post = async (payload, headers) =>
        (await handler(new Request('https://example.com/hook', { method: 'POST', headers, body: payload }))).status;
      const headers = await signWebhook(verify, body);
      const stale = await signWebhook(verify, body, { timestamp: new Date(Date.now() - 600_000) });
      const statuses = [await post(body, headers), await post(body.replace('a.zip', 'b.zip'), headers), await post(body, {})];
      if (verify.scheme === 'standard-webhooks') statuses.push(await post(body, stale));
      const expected = verify.scheme === 'standard-webhooks' ? [200, 401, 401, 401] : [200, 401, 401];
      assert(JSON.stringify(statuses) === JSON.stringify(expected), `${verify.scheme}: answered ${statuses}`);
    }
  });
  await check('webhook: a wrong method is answered 405', async () => {
    const response = await fetch(receiverUrl, { method: 'GET' });
    await response.arrayBuffer();
    assert(response.status === 405, `answered ${response.status}`);
  });
  return results;
}

/** The line a child runtime prints for `run.mjs`. */
export const RESULT_PREFIX = 'MATRIX_RESULT ';
