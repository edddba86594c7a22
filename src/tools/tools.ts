/**
 * The SDK's endpoints as tools an agent can call: one per endpoint of the table (key issuing aside), and two
 * tasks that wait for a build. Names, arguments, results and hints are derived from the table and its schemas.
 */
import type { Build, Client, Page } from '../index.js';
import { methodOf } from '../cli/method-of.js';
import { IDEMPOTENT } from '../core/retry.js';
import { array, nonEmptyString, nullableNumber, strictObject, type Schema } from '../core/schema.js';
import { ENDPOINT_DESCRIPTIONS } from '../resources/endpoint-descriptions.js';
import { ENDPOINTS, type Endpoint, type EndpointName } from '../resources/endpoints.js';
import { listParamsSchema } from '../resources/list.js';
import { MODELS } from '../resources/models.js';
import type { ListName } from '../resources/resource.js';
import { toolSchema, type ToolSchema } from './schemas.js';

/** What a tool may do, as the Model Context Protocol's tool annotations say it. */
export interface ToolHints {
  /** It changes nothing (a GET). */
  readOnlyHint: boolean;
  /** It removes something (a DELETE). */
  destructiveHint: boolean;
  /** Calling it again with the same arguments has no further effect. */
  idempotentHint: boolean;
  /** It reaches outside the service's own records: never, here. */
  openWorldHint: boolean;
}

/** What a tool's run gets besides its arguments. */
export interface ToolRunOptions {
  /** Aborts the call, or the wait, at once. */
  signal?: AbortSignal | undefined;
  /** Told each new status or progress of a build a task waits for. */
  onProgress?: ((build: Build) => void) | undefined;
}

/** One tool: a name an agent calls it by, what it does, what it takes and gives, and how to run it. */
export interface Tool {
  /** `workflows_list`: the endpoint's name in snake case, or a task's. */
  name: string;
  /** The endpoint it calls (`workflows.list`, as the SDK's errors name it); none for a task. */
  endpoint: string | undefined;
  /** Written for a model: what it does, when to use it, what the fields mean. */
  description: string;
  arguments: ToolSchema;
  /** The result's schema; none when the result is only an acknowledgement. */
  result: ToolSchema | undefined;
  hints: ToolHints;
  /** True for a task that waits, and reports progress while it does. */
  waits: boolean;
  /** Calls the service with arguments already checked by {@link Tool.arguments}; resolves with the result. */
  run(client: Client, args: Record<string, unknown>, options: ToolRunOptions): Promise<Record<string, unknown>>;
}

/** Endpoints that are not tools, and why. */
export const NOT_TOOLS: Partial<Record<EndpointName, string>> = {
  'auth.issueKey':
    'Its result is an API key: an agent would hold a credential it can neither keep safe nor need (the server already has a key), and it takes a password.',
};

/** `workflows.list` → `workflows_list`, `auth.issueKey` → `auth_issue_key`. */
export const toolName = (name: string): string => name.replace('.', '_').replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

const id = nonEmptyString();
// Read as the service gives them: a page number is no reason to fail a call that worked.
const page = { page: nullableNumber(), next_page: nullableNumber() };

function endpointTool(name: EndpointName): Tool {
  const endpoint: Endpoint = ENDPOINTS[name];
  const byId = endpoint.path.includes('{id}');
  const body = endpoint.body && (MODELS[endpoint.body]() as Schema);
  const response = endpoint.response && (MODELS[endpoint.response.model]() as Schema);
  const list = endpoint.list && array(MODELS[endpoint.list.item]() as Schema);
  const args = list
    ? listParamsSchema(name as ListName)
    : byId
      ? strictObject(body ? { id, changes: body } : { id })
      : (body ?? strictObject({}));
  return {
    name: toolName(name),
    endpoint: name,
    description: ENDPOINT_DESCRIPTIONS[name],
    arguments: toolSchema(args),
    result: list ? toolSchema(strictObject({ items: list, ...page })) : response && toolSchema(response),
    hints: {
      readOnlyHint: endpoint.method === 'GET',
      destructiveHint: endpoint.method === 'DELETE',
      idempotentHint: IDEMPOTENT.has(endpoint.method) || endpoint.idempotent === true,
      openWorldHint: false,
    },
    waits: false,
    async run(client, input, { signal }) {
      const call = methodOf(client, name);
      if (list) {
        const first = (await call(input, { signal })) as Page<unknown>;
        // The page `getNextPage()` would ask for. (Not a method of Page: it would push the client past its size gate.)
        const next = first.hasNextPage() ? (first.info.nextPage ?? first.info.page + 1) : null;
        return { items: first.items, page: first.info.page, next_page: next };
      }
      const { id: given, changes } = input;
      const data = await (byId ? (body ? call(given, changes, { signal }) : call(given, { signal })) : call(input, { signal }));
      return data === undefined || data === null || typeof data !== 'object' ? { id: given, ok: true } : (data as Record<string, unknown>);
    },
  };
}

const build = MODELS.Build() as Schema;

// Waits change nothing themselves; creating and waiting creates a workflow each time it is called. It takes
// what workflows_create takes, flat: the same schema, so an agent learns one shape.
const tasks = (create: Tool): Tool[] => [
  {
    name: 'builds_wait',
    endpoint: undefined,
    description:
      "Wait until a build ends, and return it completed (with its download_url). Give the build id: a workflow's build_id. Sends progress notifications while it runs; fails as a tool error if the build fails or takes longer than the wait allows (10 minutes). Use it after workflows_create, instead of calling builds_get repeatedly.",
    arguments: toolSchema(strictObject({ build_id: id })),
    result: toolSchema(build),
    hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    waits: true,
    async run(client, { build_id }, { signal, onProgress }) {
      return client.builds.wait(String(build_id), { signal, onProgress });
    },
  },
  {
    name: 'workflows_create_and_wait',
    endpoint: undefined,
    description:
      'Create a workflow and wait until its build ends: the workflow and its completed build in one step. Its arguments are exactly those of workflows_create (see there for the fields). Sends progress notifications while the build runs; fails as a tool error if the build fails or takes longer than 10 minutes, and the workflow then still exists (find it with workflows_list).',
    arguments: create.arguments,
    result: toolSchema(strictObject({ workflow: MODELS.CreatedWorkflow() as Schema, build })),
    hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    waits: true,
    async run(client, workflow, { signal, onProgress }) {
      return { ...(await client.workflows.createAndWait(workflow as never, { signal, onProgress })) };
    },
  },
];

/** Every tool: the endpoints' in the table's order, then the tasks. */
export function tools(): Tool[] {
  const names = Object.keys(ENDPOINTS) as EndpointName[];
  const endpoints = names.filter((name) => !(name in NOT_TOOLS)).map(endpointTool);
  return [...endpoints, ...tasks(endpoints.find((tool) => tool.endpoint === 'workflows.create')!)];
}
