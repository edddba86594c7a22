/** The workflow model: what the service returns and what `create` and `update` take, each type pinned to its schema. */
import {
  checkInput,
  array,
  httpUrl,
  looseObject,
  nonEmptyString,
  openString,
  optional,
  partial,
  parsesTo,
  refine,
  snakeCaseId,
  string,
  type Schema,
} from '../core/schema.js';

/** Workflow statuses seen so far. `Workflow['status']` accepts any other string too. */
export type WorkflowStatus = 'building' | 'active' | 'completed' | 'failed';

/** What starts a workflow: in a workflow the service returns, and in the input of `create` and `update`. */
export interface WorkflowTrigger {
  /** The kind of trigger, such as `webhook`; not empty in an input. */
  type: string;
  /** For a `webhook` trigger: the http(s) URL to call. */
  url?: string | undefined;
  /** Any other field, passed through as it is: the service may add fields at any time. */
  [key: string]: unknown;
}

/** One step of a workflow: in a workflow the service returns, and in the input of `create` and `update`. */
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

/** A workflow as returned by the service. */
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
  /** When it last changed: an ISO 8601 UTC timestamp. Not in every deployment's response. */
  updated_at?: string | undefined;
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
 * starts its build (a create response without one is a `ResponseValidationError`).
 */
export interface CreatedWorkflow extends Workflow {
  /** The build its creation started, to follow with `waitForBuild` or `builds.get`. */
  build_id: string;
}

/** What `workflows.create` takes. Extra fields are sent as given. */
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

/** What `workflows.update` takes: the fields to change, at least one. */
export type WorkflowUpdateParams = Partial<WorkflowCreateParams>;

const config = () => optional(looseObject({}));

const workflowShape = () => ({
  id: string(),
  name: string(),
  platform: string(),
  status: openString<WorkflowStatus>(),
  created_at: string(),
  updated_at: optional(string()),
  build_id: optional(string()),
  trigger: optional(looseObject({ type: string(), url: optional(string()) })),
  actions: optional(array(looseObject({ app: string(), action: string(), config: config() }))),
});

let workflow: Schema<Workflow> | undefined;
export const workflowSchema = () => (workflow ??= parsesTo<Workflow>()(looseObject(workflowShape())));

// The spec: client libraries expose build_id on a created workflow, and nothing can be waited for without it.
let created: Schema<CreatedWorkflow> | undefined;
export const createdWorkflowSchema = () =>
  (created ??= parsesTo<CreatedWorkflow>()(looseObject({ ...workflowShape(), build_id: nonEmptyString() })));

// Shared by the create and update schemas, so each check (and its doc) is written once.
const createShape = () =>
  looseObject({
    name: nonEmptyString(),
    platform: nonEmptyString(),
    trigger: looseObject({ type: nonEmptyString(), url: optional(httpUrl()) }),
    actions: array(looseObject({ app: snakeCaseId('slack'), action: snakeCaseId('send_message'), config: config() })),
  });

let create: Schema<WorkflowCreateParams> | undefined;
export const workflowCreateSchema = () => (create ??= parsesTo<WorkflowCreateParams>()(createShape()));

let update: Schema<WorkflowUpdateParams> | undefined;
export const workflowUpdateSchema = () =>
  (update ??= parsesTo<WorkflowUpdateParams>()(
    partial(createShape()).check(refine((changes: object) => Object.keys(changes).length > 0, 'must change at least one field')),
  ));

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
  return checkInput(workflowCreateSchema(), value, 'input to workflows.create');
}
