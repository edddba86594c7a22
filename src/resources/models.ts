/** The schemas (and the one reader) the endpoint table names, by name: the table itself loads no zod. */
import { buildSchema } from './build.js';
import { credentialsSchema, issuedKeyReader } from './credentials.js';
import { integrationSaveSchema, integrationSchema } from './integration.js';
import { orderSchema } from './order.js';
import { createdWorkflowSchema, workflowCreateSchema, workflowSchema, workflowUpdateSchema } from './workflow.js';

/**
 * Also the names of `openapi.json`'s schemas. Each gives its schema, built on first use, or a function that reads a
 * body the spec does not show. An endpoint's function names its models itself (resource.ts checks they are these),
 * so that it bundles none of the others.
 */
export const MODELS = {
  Workflow: workflowSchema,
  CreatedWorkflow: createdWorkflowSchema,
  WorkflowCreate: workflowCreateSchema,
  WorkflowUpdate: workflowUpdateSchema,
  Order: orderSchema,
  Build: buildSchema,
  Integration: integrationSchema,
  IntegrationSave: integrationSaveSchema,
  Credentials: credentialsSchema,
  IssuedKey: issuedKeyReader,
};

/** A model's name in the endpoint table. */
export type ModelName = keyof typeof MODELS;
