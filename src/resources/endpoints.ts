/**
 * Every endpoint of the service, declared once. The resource methods send through this table, and the mock
 * service's routing, `openapi.json`, the CLI's plain commands and the route tests are made from it.
 */
import type { $ZodShape } from 'zod/v4/core';
import { nonEmptyString, optional, type Schema } from '../core/schema.js';
import { BuildSchema } from './build.js';
import { CredentialsSchema, readIssuedKey } from './credentials.js';
import { IntegrationSaveSchema, IntegrationSchema } from './integration.js';
import { OrderSchema } from './order.js';
import { CreatedWorkflowSchema, WorkflowCreateSchema, WorkflowSchema, WorkflowUpdateSchema } from './workflow.js';

/** One endpoint: how it is sent, what it takes and what its response is. */
export interface Endpoint {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Under the service's prefix; `{id}` is the method's id, percent-encoded. Also the route hooks, spans and errors name. */
  path: string;
  /** Checked before anything is sent. */
  body?: Schema<unknown>;
  /** The body's fields that hold a secret, kept out of every error and log line. */
  secrets?: readonly string[];
  /** `false`: sent without the API key (key issuing). */
  auth?: false;
  /** The name messages give the response, and its schema or reader; none: any JSON (or nothing) is kept as received. */
  response?: { name: string; schema?: Schema<unknown>; read?: (data: unknown) => unknown; hideBody?: boolean };
  /** A list: one item's schema, and the filters besides `page` and `limit`. */
  list?: { item: Schema<unknown>; filters?: $ZodShape };
}

const status = { status: optional(nonEmptyString()) };
const workflow = { name: 'workflow', schema: WorkflowSchema };

/** Keyed by the method's name, `<namespace>.<method>`: the name input errors and the CLI use. */
export const ENDPOINTS = {
  'workflows.list': { method: 'GET', path: '/workflows', list: { item: WorkflowSchema, filters: status } },
  'workflows.create': {
    method: 'POST',
    path: '/workflows',
    body: WorkflowCreateSchema,
    response: { name: 'created workflow', schema: CreatedWorkflowSchema },
  },
  'workflows.get': { method: 'GET', path: '/workflows/{id}', response: workflow },
  'workflows.update': { method: 'PUT', path: '/workflows/{id}', body: WorkflowUpdateSchema, response: workflow },
  'workflows.delete': { method: 'DELETE', path: '/workflows/{id}' },
  'orders.list': { method: 'GET', path: '/orders', list: { item: OrderSchema, filters: status } },
  'orders.get': { method: 'GET', path: '/orders/{id}', response: { name: 'order', schema: OrderSchema } },
  'builds.get': { method: 'GET', path: '/builds/{id}', response: { name: 'build', schema: BuildSchema } },
  'integrations.save': {
    method: 'POST',
    path: '/integrations',
    body: IntegrationSaveSchema,
    secrets: ['api_key'],
    response: { name: 'integration', schema: IntegrationSchema },
  },
  'integrations.list': { method: 'GET', path: '/integrations', list: { item: IntegrationSchema } },
  'integrations.delete': { method: 'DELETE', path: '/integrations/{id}' },
  // The one path with no `/api/v1` form: src/service/prefix.ts sends it to the key issuing path.
  'auth.issueKey': {
    method: 'POST',
    path: '/v1/auth',
    auth: false,
    body: CredentialsSchema,
    secrets: ['password'],
    response: { name: 'issued key', read: readIssuedKey, hideBody: true },
  },
} as const satisfies Record<string, Endpoint>;

/** `workflows.get`, …: every endpoint's name. */
export type EndpointName = keyof typeof ENDPOINTS;
