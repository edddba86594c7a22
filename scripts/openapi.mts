// OpenAPI 3.1 of the service as the SDK reads it: its schemas via zod's public toJSONSchema, each "not shown" described.
import * as z from 'zod/mini';
import { CredentialsSchema as Credentials } from '../src/resources/auth.js';
import { BuildSchema as Build } from '../src/resources/build.js';
import { IntegrationSaveSchema as IntegrationSave, IntegrationSchema as Integration } from '../src/resources/integrations.js';
import { OrderSchema as Order } from '../src/resources/orders.js';
import * as wf from '../src/resources/workflows.js';
// A `custom` schema (the SDK's small unions) has no JSON Schema: the kinds it accepts are found with the public safeParse.
const KINDS: Record<string, unknown> = { string: 'a', number: 0.5, null: null, boolean: true };
const probe = (schema: z.core.$ZodType) => Object.keys(KINDS).filter((type) => z.safeParse(schema, KINDS[type]).success);
const override = ({ zodSchema, jsonSchema }: { zodSchema: z.core.$ZodType; jsonSchema: object }) =>
  Object.keys(jsonSchema).length === 0 && probe(zodSchema).length < 4 && Object.assign(jsonSchema, { type: probe(zodSchema) });
const toSchema = (io: 'input' | 'output', schemas: Record<string, z.core.$ZodType>) =>
  Object.entries(schemas).map(([name, schema]) => [name, z.toJSONSchema(schema, { io, unrepresentable: 'any', override })]);
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: object, description: string) => ({ description, content: { 'application/json': { schema } } });
const param = (name: string, type: string, description: string) => ({ name, in: 'query', schema: { type }, description });
const PAGING = [param('page', 'integer', '1-based; sent only when given.'), param('limit', 'integer', 'Sent only when given; no maximum.')];
const STATUS = param('status', 'string', 'Values not shown: sent as given.');
const ID = { name: 'id', in: 'path', required: true, schema: { type: 'string', minLength: 1 }, description: 'Sent percent-encoded.' };
const BODY_NOTE = 'Checked by the SDK before sending; a password or api_key never shows in its errors or logs.';
const KEY_FIELDS = ['api_key', 'apiKey', 'key', 'token', 'access_token', 'accessToken'];
const ERRORS = Object.entries({ 400: 'BadRequest', 401: 'Authentication', 403: 'PermissionDenied', 404: 'NotFound', 409: 'Conflict' })
  .concat(Object.entries({ 422: 'UnprocessableEntity', 429: 'RateLimit', 500: 'InternalServer' }))
  .map(([code, name]) => [code, json(ref('Error'), `The SDK throws ${name}Error${Number(code) >= 429 ? ', after its retries' : ''}.`)]);
// "method path operationId request-body answer" (a schema, `list:<Item>` or `none`), then what the SDK assumes.
const ENDPOINTS: [string, string][] = [
  ['get /workflows listWorkflows - list:Workflow', ''],
  ['post /workflows createWorkflow WorkflowCreate Workflow', 'The workflow, 200 or 201; its build starts.'],
  ['get /workflows/{id} getWorkflow - Workflow', 'The workflow.'],
  ['put /workflows/{id} updateWorkflow WorkflowUpdate Workflow', 'Not shown: the SDK sends the changed fields, reads a workflow.'],
  ['delete /workflows/{id} deleteWorkflow - none', ''],
  ['get /orders listOrders - list:Order', ''],
  ['get /orders/{id} getOrder - Order', 'Fields not shown: an id; every other field kept as received.'],
  ['get /builds/{id} getBuild - Build', 'Statuses beyond building, completed, failed are accepted; logs kept as received.'],
  ['get /integrations listIntegrations - list:Integration', ''],
  ['post /integrations saveIntegration IntegrationSave Integration', 'Record not shown: api_key may come back masked or not at all.'],
  ['delete /integrations/{id} deleteIntegration - none', ''],
  ['post /auth issueKey Credentials IssuedKey', `Not shown: the SDK takes the first string of ${KEY_FIELDS.join(', ')} (or data.*).`],
];
function answer(kind: string, about: string): object {
  if (kind === 'none') return { 200: { description: 'Answer not shown: any body, or none.' }, 204: { description: 'No content.' } };
  if (!kind.startsWith('list:')) return { 200: json(ref(kind), about), 201: json(ref(kind), about) };
  const items = { type: 'array', items: ref(kind.slice(5)) };
  const envelope = { type: 'object', required: ['data'], properties: { data: items, page: {}, limit: {}, total: {}, has_more: {} } };
  const read = `Envelope not shown: a bare array, or items under data, items, results or ${kind.slice(5).toLowerCase()}s (or data.*); paging read from page, limit, total, total_pages, has_more, next.`;
  return { 200: json({ oneOf: [envelope, items] }, read) };
}
const summary = (operationId: string) => operationId.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`).replace(/^\w/, (c) => c.toUpperCase());
const paths: Record<string, Record<string, unknown>> = {};
for (const prefix of ['/api/v1', '/v1']) {
  for (const [line, about] of ENDPOINTS) {
    const [method = '', path = '', id = '', body = '-', kind = ''] = line.split(' ');
    if (path === '/auth' && prefix !== '/v1') continue; // keys are issued at /v1/auth only, with no key
    const requestBody = body === '-' ? undefined : { required: true, ...json(ref(body), BODY_NOTE) };
    const responses = { ...answer(kind, about), ...Object.fromEntries(ERRORS) };
    const operationId = id + (prefix === '/v1' && path !== '/auth' ? 'V1' : '');
    const list = kind.startsWith('list:') ? [...PAGING, ...(path === '/integrations' ? [] : [STATUS])] : [];
    const parameters = path.endsWith('}') ? [ID] : list;
    const operation = { operationId, summary: summary(id), requestBody, responses, parameters, ...(path === '/auth' && { security: [] }) };
    paths[prefix + path] = { ...paths[prefix + path], [method]: operation };
  }
}
const document = {
  openapi: '3.1.0',
  info: {
    title: 'Workflow Automation Service, as workflow-automation-sdk reads it',
    version: process.env['npm_package_version'] ?? '0.0.0',
    description: 'Resources under /api/v1 (the reference) and /v1 (the quick-start); the SDK detects which one answers. Keys at /v1/auth.',
  },
  servers: [{ url: 'https://automation.example.com', description: 'Any host: the prefixes are in the paths.' }],
  security: [{ apiKey: [] }],
  paths,
  components: {
    securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'Never sent to another origin.' } },
    schemas: Object.fromEntries([
      ...toSchema('output', { Workflow: wf.WorkflowSchema, Order, Build, Integration }),
      ['IssuedKey', { type: 'object', properties: Object.fromEntries(KEY_FIELDS.map((name) => [name, { type: 'string' }])) }],
      ...toSchema('input', { WorkflowCreate: wf.WorkflowCreateSchema, WorkflowUpdate: wf.WorkflowUpdateSchema }),
      ...toSchema('input', { IntegrationSave, Credentials }),
      ['Error', { description: 'Shape not shown: any JSON or text; the SDK shows its error, message or detail as the message.' }],
    ]),
  },
};
process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
