/**
 * What each endpoint does, when to use it and what its fields mean, written for a reader who sees nothing else
 * (a model choosing a tool). Apart from the table, so an app that imports the client carries none of it.
 */
import type { EndpointName } from './endpoints.js';

/** One description per endpoint of the table; a missing one does not compile. */
export const ENDPOINT_DESCRIPTIONS = {
  'workflows.list':
    'List the user\'s workflows, one page at a time. Use it to find a workflow\'s id by its name, or to see which are active. Each item has id (wf_…), name, platform (the automation platform, such as zapier), status ("building" while its build runs, then "active"; "failed" if the build failed), created_at (ISO 8601 UTC) and build_id (the build its creation started). Optional filter: status. Paging: page (1-based) and limit; the result says whether there is a next page and its number.',
  'workflows.create':
    'Create a workflow: a trigger (what starts it, such as {"type": "webhook", "url": "https://…"}) and actions (the steps, in order, each {"app": "slack", "action": "send_message", "config": {…}}; app and action are snake_case). name and platform (such as zapier) must not be empty. Creating starts a build: the result has its build_id; the workflow is usable once that build has completed. To create and wait for the build in one step, use workflows_create_and_wait.',
  'workflows.get':
    "Read one workflow by its id (wf_…): its name, platform, status, trigger, actions, created_at and build_id. Use it to check a workflow's status or to read its definition before changing it.",
  'workflows.update':
    'Change a workflow: give its id, and in changes only the fields to change (name, platform, trigger, actions; at least one). Fields not given stay as they are. Returns the workflow as changed.',
  'workflows.delete':
    'Delete a workflow by its id (wf_…). It cannot be undone: confirm with the user first. Deleting a workflow that does not exist is an error (404).',
  'orders.list':
    "List the user's orders, one page at a time. Each order has an id (a string or a number) and a status; other fields are kept as the service sends them. Optional filter: status. Paging: page (1-based) and limit.",
  'orders.get': 'Read one order by its id. Its fields beyond id and status are as the service sends them.',
  'builds.get':
    'Read a build\'s current state once, by its id (from a workflow\'s build_id): status ("building", then "completed" or a failure such as "failed"), progress (0-100 while building) and, once completed, download_url (where the built artifact can be fetched). To wait until a build ends, use builds_wait instead of calling this repeatedly.',
  'integrations.save':
    "Save a third-party platform's API key on the service (such as shopify), so workflows can use that platform. platform and api_key must not be empty; label (optional) tells keys for the same platform apart. Saving again for a platform updates it. The key is never shown back: the result masks it (****abcd).",
  'integrations.list':
    'List the third-party platform keys saved on the service: each has an id, platform, label and the key masked. Paging: page (1-based) and limit.',
  'integrations.delete':
    'Remove a saved platform key by its integration id (from integrations_list). Workflows using that platform stop working: confirm with the user first.',
  'auth.issueKey':
    "Issue an API key for this service from an account's email and password. The key in the result is a credential: store it, never show it.",
} as const satisfies Record<EndpointName, string>;
