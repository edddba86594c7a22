/**
 * Every endpoint of the service, declared once: the resource methods, the mock's routing, `openapi.json`, the
 * CLI's plain commands and the route tests are made from it. It names its schemas (`models.ts`), so reading
 * its routes loads no zod.
 */
import type { ModelName } from './models.js';

/** One endpoint: how it is sent, what it takes and what its response is. */
export interface Endpoint {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Under the service's prefix; `{id}` is the method's id, percent-encoded. Also the route hooks, spans and errors name. */
  path: string;
  /** What one of its items is called in messages, the CLI's usage and the API description: `workflow id`. */
  noun: string;
  /** A POST that acts once however often it is sent, so that it may be retried after a 5xx. GET, PUT and DELETE are by their method. */
  idempotent?: true;
  /** The body's model, checked before anything is sent. */
  body?: ModelName;
  /** The body's fields that hold a secret, kept out of every error and log line. */
  secrets?: readonly string[];
  /** `false`: sent without the API key (key issuing). */
  auth?: false;
  /** The name messages give the response, and its model; none: any JSON (or nothing) is kept as received. */
  response?: { name: string; model: ModelName; hideBody?: boolean };
  /** A list: its items' model, and its filters besides `page` and `limit` (non-empty strings, sent as given). */
  list?: { item: ModelName; filters?: readonly string[] };
}

/** Keyed by the method's name, `<namespace>.<method>`: the name input errors and the CLI use. */
export const ENDPOINTS = {
  'workflows.list': { method: 'GET', path: '/workflows', noun: 'workflow', list: { item: 'Workflow', filters: ['status'] } },
  'workflows.create': {
    method: 'POST',
    path: '/workflows',
    noun: 'workflow',
    body: 'WorkflowCreate',
    response: { name: 'created workflow', model: 'CreatedWorkflow' },
  },
  'workflows.get': { method: 'GET', path: '/workflows/{id}', noun: 'workflow', response: { name: 'workflow', model: 'Workflow' } },
  'workflows.update': {
    method: 'PUT',
    path: '/workflows/{id}',
    noun: 'workflow',
    body: 'WorkflowUpdate',
    response: { name: 'workflow', model: 'Workflow' },
  },
  'workflows.delete': { method: 'DELETE', path: '/workflows/{id}', noun: 'workflow' },
  'orders.list': { method: 'GET', path: '/orders', noun: 'order', list: { item: 'Order', filters: ['status'] } },
  'orders.get': { method: 'GET', path: '/orders/{id}', noun: 'order', response: { name: 'order', model: 'Order' } },
  'builds.get': { method: 'GET', path: '/builds/{id}', noun: 'build', response: { name: 'build', model: 'Build' } },
  'integrations.save': {
    method: 'POST',
    path: '/integrations',
    noun: 'integration',
    body: 'IntegrationSave',
    secrets: ['api_key'],
    response: { name: 'integration', model: 'Integration' },
  },
  'integrations.list': { method: 'GET', path: '/integrations', noun: 'integration', list: { item: 'Integration' } },
  'integrations.delete': { method: 'DELETE', path: '/integrations/{id}', noun: 'integration' },
  // The one path with no `/api/v1` form: src/service/prefix.ts sends it to the key issuing path.
  'auth.issueKey': {
    method: 'POST',
    path: '/v1/auth',
    noun: 'key',
    auth: false,
    body: 'Credentials',
    secrets: ['password'],
    response: { name: 'issued key', model: 'IssuedKey', hideBody: true },
  },
} as const satisfies Record<string, Endpoint>;

/** `workflows.get`, …: every endpoint's name. */
export type EndpointName = keyof typeof ENDPOINTS;
