/** `client.workflows`: list, create, read, update and delete workflows; creating one starts a build. */
import type { RequestOptions } from '../core/options.js';
import { ownFields } from '../core/readable.js';
import type { PageParams } from '../service/envelope.js';
import type { ApiPromise } from './api-promise.js';
import { checkWaitOptions, waitForBuild, type WaitForBuildOptions } from './build-wait.js';
import type { CompletedBuild } from './build.js';
import type { ListOptions, PagePromise } from './page-promise.js';
import { list } from './list.js';
import { Resource, coreOf, send, type Core, type JsonValue } from './resource.js';
import {
  createdWorkflowSchema,
  workflowCreateSchema,
  workflowSchema,
  workflowUpdateSchema,
  type CreatedWorkflow,
  type Workflow,
  type WorkflowCreateParams,
  type WorkflowStatus,
  type WorkflowUpdateParams,
} from './workflow.js';

export { parseWorkflowCreateParams } from './workflow.js';

/** Filters and paging of `workflows.list`. */
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

/** What `workflows.createAndWait` resolves with. */
export interface WorkflowWithBuild {
  /** The workflow as `create` returned it (its `status` is as of creation). */
  workflow: CreatedWorkflow;
  /** Its completed build. */
  build: CompletedBuild;
}

/** `client.workflows`: list, create, get, update and delete workflows. */
export class Workflows extends Resource {
  /**
   * The authenticated user's workflows. Await for one page, or `for await` for every workflow.
   *
   * @example
   * ```ts
   * for await (const wf of client.workflows.list({ status: 'active' })) console.log(wf.name);
   * ```
   */
  list(params: WorkflowListParams = {}, options?: ListOptions): PagePromise<Workflow> {
    return workflowsList(this.core, params, options);
  }

  /**
   * Creates a workflow, which starts its build. Never retried after a send that may have reached the service,
   * so it cannot create duplicates. Resolves with its `build_id`; a response without one rejects with
   * `ResponseValidationError`, whose `body` holds the workflow that was created.
   *
   * @example
   * ```ts
   * const wf = await client.workflows.create({ name: 'x', platform: 'zapier', trigger: { type: 'webhook' }, actions: [] });
   * ```
   */
  create(params: WorkflowCreateParams, options?: RequestOptions): ApiPromise<CreatedWorkflow> {
    return workflowsCreate(this.core, params, options);
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
    const { maxRetries, onCreated, ...waitOptions } = ownFields(options ?? {}, 'options of workflows.createAndWait');
    // Checked before creating: a mistake must not leave a workflow behind.
    checkWaitOptions(waitOptions, 'workflows.createAndWait');
    const { signal, headers, requestTimeoutMs } = waitOptions;
    const workflow = await this.create(params, { signal, headers, maxRetries, timeoutMs: requestTimeoutMs });
    onCreated?.(workflow);
    // The workflow, not its build id: the wait then files itself under both, for a delivery naming either.
    const build = await waitForBuild(coreOf(this), workflow, waitOptions);
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
    return workflowsGet(this.core, id, options);
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
    return workflowsUpdate(this.core, id, changes, options);
  }

  /**
   * Deletes a workflow. Resolves to `undefined` for an empty response (204), else to the body as received.
   *
   * @example
   * ```ts
   * await client.workflows.delete('wf_123');
   * ```
   */
  delete(id: string, options?: RequestOptions): ApiPromise<JsonValue | undefined> {
    return workflowsDelete(this.core, id, options);
  }
}

// The endpoints as standalone functions (the `/funcs` entry): the methods above are these, with the client's core.

/** `client.workflows.list` as a function of a core: one page awaited, every workflow with `for await`. */
export function workflowsList(core: Core, params: WorkflowListParams = {}, options?: ListOptions): PagePromise<Workflow> {
  return list(coreOf(core), 'workflows.list', workflowSchema, params, options);
}

/** `client.workflows.create` as a function of a core: never retried after a send that may have reached the service. */
export function workflowsCreate(core: Core, params: WorkflowCreateParams, options?: RequestOptions): ApiPromise<CreatedWorkflow> {
  return send(coreOf(core), 'workflows.create', { body: workflowCreateSchema, response: createdWorkflowSchema }, { body: params, options });
}

/** `client.workflows.get` as a function of a core. */
export function workflowsGet(core: Core, id: string, options?: RequestOptions): ApiPromise<Workflow> {
  return send(coreOf(core), 'workflows.get', { response: workflowSchema }, { id, options });
}

/** `client.workflows.update` as a function of a core. */
export function workflowsUpdate(core: Core, id: string, changes: WorkflowUpdateParams, options?: RequestOptions): ApiPromise<Workflow> {
  return send(coreOf(core), 'workflows.update', { body: workflowUpdateSchema, response: workflowSchema }, { id, body: changes, options });
}

/** `client.workflows.delete` as a function of a core. */
export function workflowsDelete(core: Core, id: string, options?: RequestOptions): ApiPromise<JsonValue | undefined> {
  return send(coreOf(core), 'workflows.delete', {}, { id, options });
}
