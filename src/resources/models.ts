/** The schemas (and the one reader) the endpoint table names, by name: the table itself loads no zod. */
import type { Schema } from '../core/schema.js';
import { BuildSchema, CompletedBuildRule } from './build.js';
import { CredentialsSchema, readIssuedKey } from './credentials.js';
import { IntegrationSaveSchema, IntegrationSchema } from './integration.js';
import { OrderSchema } from './order.js';
import { CreatedWorkflowSchema, WorkflowCreateSchema, WorkflowSchema, WorkflowUpdateSchema } from './workflow.js';

/** Also the names of `openapi.json`'s schemas. A function reads a body the spec does not show. */
export const MODELS = {
  Workflow: WorkflowSchema,
  CreatedWorkflow: CreatedWorkflowSchema,
  WorkflowCreate: WorkflowCreateSchema,
  WorkflowUpdate: WorkflowUpdateSchema,
  Order: OrderSchema,
  Build: BuildSchema,
  Integration: IntegrationSchema,
  IntegrationSave: IntegrationSaveSchema,
  Credentials: CredentialsSchema,
  IssuedKey: readIssuedKey,
};

/** What of a model is checked even with `validateResponses: false`: what the SDK's types rest on. */
export const ALWAYS_CHECKED: Partial<Record<ModelName, Schema>> = { Build: CompletedBuildRule };

/** A model's name in the endpoint table. */
export type ModelName = keyof typeof MODELS;
