/**
 * workflow-automation-sdk/funcs: every endpoint as a function of a core, for apps that bundle only what they
 * call. `createCore` takes the `Client`'s options; each function returns what the method of the same name does.
 *
 * @packageDocumentation
 */
export { createCore } from './resources/create-core.js';
export type { Core } from './resources/resource.js';
export { workflowsList, workflowsCreate, workflowsGet, workflowsUpdate, workflowsDelete } from './resources/workflows.js';
export { ordersList, ordersGet } from './resources/orders.js';
export { buildsGet, waitForBuild } from './resources/build-calls.js';
export { integrationsSave, integrationsList, integrationsDelete } from './resources/integrations.js';
export { authIssueKey } from './resources/auth.js';
