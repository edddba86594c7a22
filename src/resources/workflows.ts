/** Workflows: a name, a target platform, one trigger and an ordered list of actions. Creating one starts a build. */
import type { RequestOptions } from '../core/options.js';
import type { PageParams } from '../service/envelope.js';
import { listEndpoint } from './list.js';
import type { ListOptions, PagePromise } from './page-promise.js';
import {
  array,
  checkInput,
  httpUrl,
  idSegment,
  looseObject,
  nonEmptyString,
  openString,
  optional,
  partial,
  parsesTo,
  refine,
  snakeCaseId,
  string,
} from '../core/schema.js';
import { checkWaitOptions, type WaitForBuildOptions } from './build-wait.js';
import type { CompletedBuild } from './build.js';
import type { Builds } from './builds.js';
import type { ApiPromise } from './api-promise.js';
import { Resource, call, coreOf, type JsonValue } from './resource.js';

/**
 * Workflow statuses seen so far. `Workflow['status']` accepts any other string too.
 *
 * @example
 * ```ts
 * const status: WorkflowStatus = 'active';
 * client.workflows.list({ status });
 * ```
 */
export type WorkflowStatus = 'building' | 'active' | 'completed' | 'failed';

/**
 * What starts a workflow: in a workflow the service returns, and in the input of `create` and `update`.
 *
 * @example
 * ```ts
 * const trigger: WorkflowTrigger = { type: 'webhook', url: 'https://example.com/hook' };
 * ```
 */
export interface WorkflowTrigger {
  /** The kind of trigger, such as `webhook`; not empty in an input. */
  type: string;
  /** For a `webhook` trigger: the http(s) URL to call. */
  url?: string | undefined;
  /** Any other field, passed through as it is: the service may add fields at any time. */
  [key: string]: unknown;
}

/**
 * One step of a workflow: in a workflow the service returns, and in the input of `create` and `update`.
 *
 * @example
 * ```ts
 * const action: WorkflowAction = { app: 'slack', action: 'send_message', config: { channel: '#orders' } };
 * ```
 */
export interface WorkflowAction {
  /** The application, such as `slack`; in an input, lower case letters, digits and underscores. */
  app: string;
  /** The operation of that application, in the same form, such as `send_message`. */
  action: string;
  /** Settings of the action; their keys depend on the app. */
  config?: Record<string, unknown> | undefined;
  /** Any other field, passed through as it is: the service may add fields at any time. */
  [key: string]: unknown;
}

/**
 * A workflow as returned by the service.
 *
 * @example
 * ```ts
 * const wf: Workflow = await client.workflows.get('wf_123');
 * wf.status; // 'building' | 'active' | ... | (any other string)
 * ```
 */
export interface Workflow {
  /** Its id (`wf_…`), as `get`, `update` and `delete` take it. */
  id: string;
  /** The name given at creation. */
  name: string;
  /** The target automation platform, such as `zapier`. */
  platform: string;
  /** Its state. A status this SDK does not know is kept as received: a new one must not break a caller. */
  status: WorkflowStatus | (string & {});
  /** When it was created: an ISO 8601 UTC timestamp. */
  created_at: string;
  /** The build its creation started, to follow with `waitForBuild`. Not in every deployment's response. */
  build_id?: string | undefined;
  /** What starts it. */
  trigger?: WorkflowTrigger | undefined;
  /** What it does, in order. */
  actions?: WorkflowAction[] | undefined;
  /** Any other field, passed through as it is: the service may add fields at any time. */
  [key: string]: unknown;
}

/**
 * A workflow as `workflows.create` returns it: its `build_id` is always there, since creating a workflow
 * starts its build (a create answer without one is a `ResponseValidationError`).
 *
 * @example
 * ```ts
 * const wf: CreatedWorkflow = await client.workflows.create(input);
 * const build = await client.builds.get(wf.build_id);
 * ```
 */
export interface CreatedWorkflow extends Workflow {
  /** The build its creation started, to follow with `waitForBuild` or `builds.get`. */
  build_id: string;
}

/**
 * What `workflows.create` takes. Extra fields are sent as given.
 *
 * @example
 * ```ts
 * const input: WorkflowCreateParams = {
 *   name: 'Notify on order', platform: 'zapier', trigger: { type: 'webhook', url: 'https://example.com/hook' },
 *   actions: [{ app: 'slack', action: 'send_message', config: { channel: '#orders' } }],
 * };
 * ```
 */
export interface WorkflowCreateParams {
  /** The name of the workflow; not empty. */
  name: string;
  /** The target automation platform, such as `zapier`; not empty. */
  platform: string;
  /** What starts the workflow. */
  trigger: WorkflowTrigger;
  /** What the workflow does, in order. */
  actions: WorkflowAction[];
  /** Any other field, passed through as it is: the service may add fields at any time. */
  [key: string]: unknown;
}

/**
 * What `workflows.update` takes: the fields to change, at least one.
 *
 * @example
 * ```ts
 * await client.workflows.update('wf_123', { name: 'Renamed' });
 * ```
 */
export interface WorkflowUpdateParams {
  /** The name of the workflow; not empty. */
  name?: string | undefined;
  /** The target automation platform, such as `zapier`; not empty. */
  platform?: string | undefined;
  /** What starts the workflow. */
  trigger?: WorkflowTrigger | undefined;
  /** What the workflow does, in order. */
  actions?: WorkflowAction[] | undefined;
  /** Any other field, passed through as it is: the service may add fields at any time. */
  [key: string]: unknown;
}

export const WorkflowStatusSchema = openString(['building', 'active', 'completed', 'failed']);

const config = optional(looseObject({}));

// A function rather than a spread of one shape: esbuild cannot prove a spread free of side effects, and would
// keep every schema in bundles that import only an error class.
/* @__NO_SIDE_EFFECTS__ */
function workflowShape<B>(buildId: B) {
  return {
    id: string(),
    name: string(),
    platform: string(),
    status: WorkflowStatusSchema,
    created_at: string(),
    build_id: buildId,
    trigger: optional(
      looseObject({
        type: string(),
        url: optional(string()),
      }),
    ),
    actions: optional(
      array(
        looseObject({
          app: string(),
          action: string(),
          config,
        }),
      ),
    ),
  };
}

export const WorkflowSchema = /* @__PURE__ */ parsesTo<Workflow>()(looseObject(workflowShape(optional(string()))));

// The spec: client libraries expose build_id on a created workflow, and nothing can be waited for without it.
export const CreatedWorkflowSchema = /* @__PURE__ */ parsesTo<CreatedWorkflow>()(looseObject(workflowShape(nonEmptyString())));

// The create fields, shared by the create and update schemas so each check (and its doc) is written once.
const createFields = {
  name: nonEmptyString(),
  platform: nonEmptyString(),
  trigger: looseObject({
    type: nonEmptyString(),
    url: optional(httpUrl()),
  }),
  actions: array(
    looseObject({
      app: snakeCaseId('slack'),
      action: snakeCaseId('send_message'),
      config,
    }),
  ),
};

const createSchema = looseObject(createFields);

export const WorkflowCreateSchema = /* @__PURE__ */ parsesTo<WorkflowCreateParams>()(createSchema);

export const WorkflowUpdateSchema = /* @__PURE__ */ parsesTo<WorkflowUpdateParams>()(
  partial(createSchema).check(refine((changes: object) => Object.keys(changes).length > 0, 'must change at least one field')),
);

/**
 * Checks a value read from JSON (a file, a request) as `workflows.create` would: returns it typed, or throws
 * the same `ValidationError`, naming each field, without sending anything.
 *
 * @example
 * ```ts
 * const input = parseWorkflowCreateParams(JSON.parse(await readFile('workflow.json', 'utf8')));
 * await client.workflows.create(input);
 * ```
 */
export function parseWorkflowCreateParams(value: unknown): WorkflowCreateParams {
  return checkInput(WorkflowCreateSchema, value, 'input to workflows.create');
}

const listWorkflows = listEndpoint('workflows', WorkflowSchema, { status: optional(nonEmptyString()) });

const workflowAnswer = { name: 'workflow', schema: WorkflowSchema };

/**
 * Filters and paging of `workflows.list`.
 *
 * @example
 * ```ts
 * client.workflows.list({ status: 'building', limit: 50 });
 * ```
 */
export interface WorkflowListParams extends PageParams {
  /** Only workflows with this status. */
  status?: WorkflowStatus | (string & {}) | undefined;
}

/**
 * What `workflows.createAndWait` takes. `timeoutMs` is the wait's deadline, counted once the workflow exists;
 * the create call runs with the client's `timeoutMs`.
 *
 * @example
 * ```ts
 * const options: CreateAndWaitOptions = { timeoutMs: 300_000, onCreated: (wf) => db.save(wf.id) };
 * ```
 */
export interface CreateAndWaitOptions extends WaitForBuildOptions {
  /** Retries of the create call only (polls are never retried by the core: the wait reschedules them). */
  maxRetries?: number | undefined;
  /** Called before the wait starts, so the workflow's id is known even if the wait then fails. */
  onCreated?: ((workflow: CreatedWorkflow) => void) | undefined;
}

/**
 * What `workflows.createAndWait` resolves with.
 *
 * @example
 * ```ts
 * const { workflow, build }: WorkflowWithBuild = await client.workflows.createAndWait(input);
 * console.log(workflow.id, build.download_url);
 * ```
 */
export interface WorkflowWithBuild {
  /** The workflow as `create` returned it (its `status` is as of creation). */
  workflow: CreatedWorkflow;
  /** Its completed build. */
  build: CompletedBuild;
}

/**
 * `client.workflows`: list, create, get, update and delete workflows.
 *
 * @example
 * ```ts
 * const wf = await client.workflows.get('wf_123');
 * console.log(wf.id, wf.status, wf.build_id);
 * ```
 */
export class Workflows extends Resource {
  readonly #builds: Builds;

  /** @internal */
  constructor(core: object, builds: Builds) {
    super(core);
    this.#builds = builds;
  }

  /**
   * The authenticated user's workflows. Await for one page, or `for await` for every workflow.
   *
   * @example
   * ```ts
   * for await (const wf of client.workflows.list({ status: 'active' })) console.log(wf.name);
   * ```
   */
  list(params: WorkflowListParams = {}, options?: ListOptions): PagePromise<Workflow> {
    return listWorkflows(coreOf(this), params, options);
  }

  /**
   * Creates a workflow, which starts its build. Never retried after a send that may have reached the service,
   * so it cannot create duplicates. Resolves with its `build_id`; an answer without one rejects with
   * `ResponseValidationError`, whose `body` holds the workflow that was created.
   *
   * @example
   * ```ts
   * const wf = await client.workflows.create({ name: 'x', platform: 'zapier', trigger: { type: 'webhook' }, actions: [] });
   * ```
   */
  create(params: WorkflowCreateParams, options?: RequestOptions): ApiPromise<CreatedWorkflow> {
    return call(coreOf(this), () => ({
      ...options,
      method: 'POST',
      path: '/workflows',
      body: parseWorkflowCreateParams(params),
      response: { name: 'created workflow', schema: CreatedWorkflowSchema },
    }));
  }

  /**
   * Creates a workflow, then waits for its build like `client.builds.wait`; the `signal` covers both steps.
   * Rejects with `ResponseValidationError` if the created workflow has no `build_id` (its `body` holds the
   * workflow); `onCreated` gets the workflow before the wait starts.
   *
   * @example
   * ```ts
   * const { workflow, build } = await client.workflows.createAndWait(input, { onCreated: (wf) => console.log(wf.id) });
   * ```
   */
  async createAndWait(params: WorkflowCreateParams, options?: CreateAndWaitOptions | null): Promise<WorkflowWithBuild> {
    const { maxRetries, onCreated, ...waitOptions } = options ?? {};
    // Checked before creating: a mistake must not leave a workflow behind.
    checkWaitOptions(waitOptions, 'workflows.createAndWait');
    const { signal, headers, requestTimeoutMs } = waitOptions;
    const workflow = await this.create(params, { signal, headers, maxRetries, timeoutMs: requestTimeoutMs });
    onCreated?.(workflow);
    const build = await this.#builds.wait(workflow.build_id, waitOptions);
    return { workflow, build };
  }

  /**
   * One workflow by id.
   *
   * @example
   * ```ts
   * const wf = await client.workflows.get('wf_123');
   * ```
   */
  get(id: string, options?: RequestOptions): ApiPromise<Workflow> {
    return call(coreOf(this), () => {
      const path = `/workflows/${idSegment(id, 'workflow id')}`;
      return { ...options, method: 'GET', path, route: '/workflows/{id}', response: workflowAnswer };
    });
  }

  /**
   * Changes a workflow (PUT with the given fields) and returns it as updated.
   *
   * @example
   * ```ts
   * const wf = await client.workflows.update('wf_123', { actions: [{ app: 'gmail', action: 'send_email' }] });
   * ```
   */
  update(id: string, changes: WorkflowUpdateParams, options?: RequestOptions): ApiPromise<Workflow> {
    return call(coreOf(this), () => {
      const path = `/workflows/${idSegment(id, 'workflow id')}`;
      const body = checkInput(WorkflowUpdateSchema, changes, 'input to workflows.update');
      return { ...options, method: 'PUT', path, route: '/workflows/{id}', body, response: workflowAnswer };
    });
  }

  /**
   * Deletes a workflow. Resolves to `undefined` for an empty answer (204), else to the body as received.
   *
   * @example
   * ```ts
   * await client.workflows.delete('wf_123');
   * ```
   */
  delete(id: string, options?: RequestOptions): ApiPromise<JsonValue | undefined> {
    return call<JsonValue | undefined>(coreOf(this), () => ({
      ...options,
      method: 'DELETE',
      path: `/workflows/${idSegment(id, 'workflow id')}`,
      route: '/workflows/{id}',
    }));
  }
}
