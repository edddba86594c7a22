/**
 * Workflows: a name, a target platform, one trigger and an ordered list of actions. Creating one starts a build.
 */
import type { RequestOptions } from '../core/options.js';
import { listPages, type PagePromise, type PageParams } from '../core/pagination.js';
import * as z from 'zod/mini';
import {
  checkInput,
  httpUrl,
  idSegment,
  looseObject,
  nonEmptyString,
  openString,
  positiveInt,
  snakeCaseId,
} from '../core/schema.js';
import { Resource, type JsonValue } from './resource.js';

/** Workflow statuses seen so far; any other string is accepted too. */
export type WorkflowStatus = 'building' | 'active' | 'completed' | 'failed';

const config = z.optional(z.record(z.string(), z.unknown()));

/** The schema of a workflow as the service returns it; unknown fields are kept. */
export const WorkflowSchema = looseObject({
  id: z.string(),
  name: z.string(),
  platform: z.string(),
  status: openString<WorkflowStatus>(),
  created_at: z.string(),
  /** Not in every deployment's response; needed to follow the build. */
  build_id: z.optional(z.string()),
  trigger: z.optional(looseObject({ type: z.string(), url: z.optional(z.string()) })),
  actions: z.optional(z.array(looseObject({ app: z.string(), action: z.string(), config }))),
});

/**
 * A workflow as returned by the service.
 *
 * @example
 * ```ts
 * const wf: Workflow = await client.workflows.get('wf_123');
 * wf.status; // 'building' | 'active' | ... | (any other string)
 * ```
 */
export type Workflow = z.infer<typeof WorkflowSchema>;

/** The schema of the body of `workflows.create`: checked before sending. */
export const WorkflowCreateSchema = looseObject({
  name: nonEmptyString(),
  platform: nonEmptyString(),
  trigger: looseObject({ type: nonEmptyString(), url: z.optional(httpUrl()) }),
  actions: z.array(looseObject({ app: snakeCaseId(), action: snakeCaseId(), config })),
});

/**
 * What `workflows.create` takes. Extra fields are sent as given.
 *
 * @example
 * ```ts
 * const input: WorkflowCreateParams = {
 *   name: 'Notify on order',
 *   platform: 'zapier',
 *   trigger: { type: 'webhook', url: 'https://example.com/hook' },
 *   actions: [{ app: 'slack', action: 'send_message', config: { channel: '#orders' } }],
 * };
 * ```
 */
export type WorkflowCreateParams = z.input<typeof WorkflowCreateSchema>;

/** The schema of `workflows.update` changes: any subset of the create fields, at least one. */
export const WorkflowUpdateSchema = z.partial(WorkflowCreateSchema).check(
  z.refine((changes) => Object.keys(changes).length > 0, 'must name at least one field to change'),
);

/**
 * What `workflows.update` takes: the fields to change.
 *
 * @example
 * ```ts
 * await client.workflows.update('wf_123', { name: 'Renamed' });
 * ```
 */
export type WorkflowUpdateParams = z.input<typeof WorkflowUpdateSchema>;

const ListSchema = z.strictObject({
  page: z.optional(positiveInt()),
  limit: z.optional(positiveInt()),
  status: z.optional(nonEmptyString()),
});

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
 * `client.workflows`: list, create, get, update and delete workflows.
 *
 * @example
 * ```ts
 * const wf = await client.workflows.create({
 *   name: 'Notify on order', platform: 'zapier',
 *   trigger: { type: 'webhook' },
 *   actions: [{ app: 'slack', action: 'send_message' }],
 * });
 * console.log(wf.id, wf.status, wf.build_id);
 * ```
 */
export class Workflows extends Resource {
  /**
   * The authenticated user's workflows. Await for one page, or `for await` for every workflow.
   *
   * @example
   * ```ts
   * for await (const wf of client.workflows.list({ status: 'active' })) console.log(wf.name);
   * ```
   */
  list(params: WorkflowListParams = {}, options?: RequestOptions): PagePromise<Workflow> {
    return listPages(this.core, { path: '/workflows', plural: 'workflows', item: WorkflowSchema, query: { ...params } }, options, () => {
      checkInput(ListSchema, params, 'parameters of workflows.list');
    });
  }

  /**
   * Creates a workflow, which starts its build. Never retried after a send that may have reached the service
   * (see Retries), so it cannot create duplicates.
   *
   * @example
   * ```ts
   * const wf = await client.workflows.create({ name: 'x', platform: 'zapier', trigger: { type: 'webhook' }, actions: [] });
   * ```
   */
  async create(params: WorkflowCreateParams, options?: RequestOptions): Promise<Workflow> {
    const body = checkInput(WorkflowCreateSchema, params, 'input to workflows.create');
    return this.core.request({ ...options, method: 'POST', path: '/workflows', body, schema: WorkflowSchema, what: 'workflow' });
  }

  /**
   * One workflow by id.
   *
   * @example
   * ```ts
   * const wf = await client.workflows.get('wf_123');
   * ```
   */
  async get(id: string, options?: RequestOptions): Promise<Workflow> {
    const path = `/workflows/${idSegment(id, 'workflow id')}`;
    return this.core.request({ ...options, method: 'GET', path, schema: WorkflowSchema, what: 'workflow' });
  }

  /**
   * Changes a workflow (PUT with the given fields) and returns it as updated.
   *
   * @example
   * ```ts
   * const wf = await client.workflows.update('wf_123', { actions: [{ app: 'gmail', action: 'send_email' }] });
   * ```
   */
  async update(id: string, changes: WorkflowUpdateParams, options?: RequestOptions): Promise<Workflow> {
    const path = `/workflows/${idSegment(id, 'workflow id')}`;
    const body = checkInput(WorkflowUpdateSchema, changes, 'changes to workflows.update');
    return this.core.request({ ...options, method: 'PUT', path, body, schema: WorkflowSchema, what: 'workflow' });
  }

  /**
   * Deletes a workflow. Resolves to `undefined` for an empty answer (204), else to the body as received.
   *
   * @example
   * ```ts
   * await client.workflows.delete('wf_123');
   * ```
   */
  async delete(id: string, options?: RequestOptions): Promise<JsonValue | void> {
    const path = `/workflows/${idSegment(id, 'workflow id')}`;
    return this.core.request<JsonValue | undefined>({ ...options, method: 'DELETE', path });
  }
}
