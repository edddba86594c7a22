/**
 * The endpoints of the SDK's table, one handler each (`HANDLERS`). Every resource is scoped to its owner:
 * another user's record is a 404 exactly like a missing one, so ids of other users cannot be probed.
 */
import type { EndpointName } from '../resources/endpoints.js';
import type { Artifacts } from './artifacts.js';
import { buildStatus, buildView, workflowStatus } from './builds.js';
import { listResponse } from './lists.js';
import type { Random } from './random.js';
import { HttpError, json, noContent } from './responses.js';
import type { Store, StoredBuild, StoredIntegration, StoredWorkflow } from './store.js';
import type { MockIntegration, MockListEnvelope, MockWorkflow } from './types.js';
import { parseCredentials, parseIntegrationInput, parsePaging, parseWorkflowChanges, parseWorkflowInput, readJson } from './validate.js';

export interface ServiceState {
  store: Store;
  now: () => number;
  ids: Random;
  listEnvelope: MockListEnvelope;
  /** The duration of the next build: fixed, or drawn from the configured range. */
  buildDurationMs: () => number;
  downloadBaseUrl: string | undefined;
  artifacts: Artifacts;
  shouldFailBuild: (workflow: MockWorkflow) => boolean;
  buildStarted: () => void;
  issueKey: (email: string) => string;
}

/** One authenticated request, as an endpoint receives it. */
export interface EndpointContext {
  request: Request;
  url: URL;
  /** The `{id}` path segment, decoded; empty for paths without one. */
  id: string;
  /** The email of the API key's user. */
  owner: string;
  state: ServiceState;
}

export type Endpoint = (context: EndpointContext) => Response | Promise<Response>;

const iso = (ms: number): string => new Date(ms).toISOString();

function workflowView(workflow: StoredWorkflow, state: ServiceState): MockWorkflow {
  return {
    id: workflow.id,
    name: workflow.name,
    platform: workflow.platform,
    trigger: structuredClone(workflow.trigger),
    actions: structuredClone(workflow.actions),
    status: workflowStatus(state.store.builds.get(workflow.buildId), state.now()),
    build_id: workflow.buildId,
    created_at: iso(workflow.createdAt),
    updated_at: iso(workflow.updatedAt),
  };
}

/**
 * Masks a secret so a response never carries it whole: at most four characters each side, and never more
 * than half of it (`sk_live_abcdef1234` → `sk_l…1234`, `abcd` → `a…d`).
 */
export function maskKey(key: string): string {
  const shown = Math.min(4, Math.floor(key.length / 4));
  return shown === 0 ? '…' : `${key.slice(0, shown)}…${key.slice(-shown)}`;
}

function integrationView(integration: StoredIntegration): MockIntegration {
  return {
    id: integration.id,
    platform: integration.platform,
    label: integration.label,
    api_key: maskKey(integration.apiKey),
    created_at: iso(integration.createdAt),
    updated_at: iso(integration.updatedAt),
  };
}

function notFound(kind: string, id: string): HttpError {
  return new HttpError(404, `No ${kind} with id ${id}`, 'not_found');
}

function ownWorkflow({ state, id, owner }: EndpointContext): StoredWorkflow {
  const workflow = state.store.workflows.get(id);
  if (!workflow || workflow.owner !== owner) throw notFound('workflow', id);
  return workflow;
}

/** `workflows.list`: the user's workflows, newest first, filtered by `status`. */
export const listWorkflows: Endpoint = ({ url, owner, state }) => {
  const paging = parsePaging(url);
  const items = [...state.store.workflows.values()]
    .reverse()
    .filter((workflow) => workflow.owner === owner)
    .map((workflow) => workflowView(workflow, state))
    .filter((workflow) => paging.status === undefined || workflow.status === paging.status);
  return listResponse(items, paging, state.listEnvelope);
};

/** `workflows.create`: checks the body (422 on a bad one), stores the workflow and starts its build. 201. */
export const createWorkflow: Endpoint = async ({ request, url, owner, state }) => {
  const input = parseWorkflowInput(await readJson(request));
  const at = state.now();
  const workflow: StoredWorkflow = {
    id: state.ids.id('wf_'),
    owner,
    ...input,
    buildId: state.ids.id('bld_'),
    createdAt: at,
    updatedAt: at,
  };
  const build: StoredBuild = {
    id: workflow.buildId,
    owner,
    workflowId: workflow.id,
    platform: input.platform,
    triggerType: input.trigger.type,
    steps: input.actions.map((action) => `${action.app}.${action.action}`),
    startedAt: at,
    durationMs: state.buildDurationMs(),
    fails: false,
    origin: (state.downloadBaseUrl ?? url.origin).replace(/\/+$/, ''),
    settled: false,
  };
  state.store.workflows.set(workflow.id, workflow);
  state.store.builds.set(build.id, build);
  // Decided once the workflow exists, so that a failBuilds function sees it as clients will.
  build.fails = state.shouldFailBuild(workflowView(workflow, state));
  state.buildStarted();
  return json(201, workflowView(workflow, state));
};

/** `workflows.get`. */
export const getWorkflow: Endpoint = (context) => json(200, workflowView(ownWorkflow(context), context.state));

/**
 * `workflows.update`: replaces the fields sent (name, platform, trigger, actions); does not start a new
 * build. 200 with the updated workflow.
 */
export const updateWorkflow: Endpoint = async (context) => {
  const workflow = ownWorkflow(context);
  const changes = parseWorkflowChanges(await readJson(context.request));
  Object.assign(workflow, changes, { updatedAt: context.state.now() });
  return json(200, workflowView(workflow, context.state));
};

/** `workflows.delete`: 204. A build still running is cancelled and sends no webhook. */
export const deleteWorkflow: Endpoint = (context) => {
  const workflow = ownWorkflow(context);
  const { store, now } = context.state;
  store.workflows.delete(workflow.id);
  const build = store.builds.get(workflow.buildId);
  const at = now();
  if (build && buildStatus(build, at) === 'building') build.cancelledAt = at;
  return noContent();
};

/** `orders.list`: the user's seeded orders, newest first, filtered by `status`. */
export const listOrders: Endpoint = ({ url, owner, state }) => {
  const paging = parsePaging(url);
  const items = state.store.orders
    .filter((entry) => entry.owner === owner)
    .map((entry) => ({ ...entry.order }))
    .filter((order) => paging.status === undefined || order.status === paging.status);
  return listResponse(items, paging, state.listEnvelope);
};

/** `orders.get`. */
export const getOrder: Endpoint = ({ id, owner, state }) => {
  const entry = state.store.orders.find((candidate) => candidate.order.id === id && candidate.owner === owner);
  if (!entry) throw notFound('order', id);
  return json(200, { ...entry.order });
};

/** `builds.get`: status and logs computed from the clock. */
export const getBuild: Endpoint = ({ id, owner, state }) => {
  const build = state.store.builds.get(id);
  if (!build || build.owner !== owner) throw notFound('build', id);
  const at = state.now();
  return json(
    200,
    buildView(build, at, (done) => state.artifacts.url(done, at)),
  );
};

/**
 * `integrations.save`: saves a key for a platform; a second save for the same platform updates the first
 * (200) instead of creating another (201). `label` is kept when an update omits it.
 */
export const saveIntegration: Endpoint = async ({ request, owner, state }) => {
  const input = parseIntegrationInput(await readJson(request));
  const at = state.now();
  const existing = [...state.store.integrations.values()].find(
    (integration) => integration.owner === owner && integration.platform === input.platform,
  );
  if (existing) {
    existing.apiKey = input.api_key;
    if (input.label !== undefined) existing.label = input.label;
    existing.updatedAt = at;
    return json(200, integrationView(existing));
  }
  const created: StoredIntegration = {
    id: state.ids.id('int_'),
    owner,
    platform: input.platform,
    apiKey: input.api_key,
    label: input.label ?? null,
    createdAt: at,
    updatedAt: at,
  };
  state.store.integrations.set(created.id, created);
  return json(201, integrationView(created));
};

/** `integrations.list`: the user's saved keys, masked, newest first. */
export const listIntegrations: Endpoint = ({ url, owner, state }) => {
  const paging = parsePaging(url);
  const items = [...state.store.integrations.values()]
    .reverse()
    .filter((integration) => integration.owner === owner)
    .map(integrationView);
  return listResponse(items, paging, state.listEnvelope);
};

/** `integrations.delete`: 204. */
export const deleteIntegration: Endpoint = ({ id, owner, state }) => {
  const integration = state.store.integrations.get(id);
  if (!integration || integration.owner !== owner) throw notFound('integration', id);
  state.store.integrations.delete(id);
  return noContent();
};

/**
 * `auth.issueKey`, at the mock's `authPath`: `{ email, password }` of a configured user → 200 `{ api_key, user: { email } }`; a new
 * key on every call. Wrong credentials: 401.
 */
export const login: Endpoint = async ({ request, state }) => {
  const { email, password } = parseCredentials(await readJson(request));
  if (state.store.passwords.get(email) !== password) {
    throw new HttpError(401, 'Invalid email or password', 'invalid_credentials');
  }
  return json(200, { api_key: state.issueKey(email), user: { email } });
};

/**
 * `GET /downloads/{build_id}.zip`: the artifact of a completed build (`artifacts.ts`). No API key is needed,
 * as with a signed download link; 404 until the build has completed.
 */
export function download(request: Request, fileName: string, state: ServiceState): Response {
  return state.artifacts.serve(request, fileName, state.store, state.now());
}

/** The handler of each endpoint of the table: an endpoint without one does not compile. */
export const HANDLERS: Record<EndpointName, Endpoint> = {
  'workflows.list': listWorkflows,
  'workflows.create': createWorkflow,
  'workflows.get': getWorkflow,
  'workflows.update': updateWorkflow,
  'workflows.delete': deleteWorkflow,
  'orders.list': listOrders,
  'orders.get': getOrder,
  'builds.get': getBuild,
  'integrations.save': saveIntegration,
  'integrations.list': listIntegrations,
  'integrations.delete': deleteIntegration,
  'auth.issueKey': login,
};
