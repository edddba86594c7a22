// OpenAPI 3.1 of the service as the SDK reads it, from the endpoint table (src/resources/endpoints.ts): its schemas via
// zod's public toJSONSchema, each "not shown" described.
import { KEY_FIELDS } from '../src/resources/credentials.js';
import { ENDPOINTS, type Endpoint, type EndpointName } from '../src/resources/endpoints.js';
import { MODELS, type ModelName } from '../src/resources/models.js';
import { jsonSchemaOf } from '../src/tools/json-schema.js';
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: object, description: string) => ({ description, content: { 'application/json': { schema } } });
const param = (name: string, type: string, description: string) => ({ name, in: 'query', schema: { type }, description });
const PAGING = [param('page', 'integer', '1-based; sent only when given.'), param('limit', 'integer', 'Sent only when given; no maximum.')];
const ID = { name: 'id', in: 'path', required: true, schema: { type: 'string', minLength: 1 }, description: 'Sent percent-encoded.' };
const BODY_NOTE = 'Checked by the SDK before sending; a password or api_key never shows in its errors or logs.';
const ERRORS = Object.entries({ 400: 'BadRequest', 401: 'Authentication', 403: 'PermissionDenied', 404: 'NotFound', 409: 'Conflict' })
  .concat(Object.entries({ 422: 'UnprocessableEntity', 429: 'RateLimit', 500: 'InternalServer' }))
  .map(([code, name]) => [code, json(ref('Error'), `The SDK throws ${name}Error${Number(code) >= 429 ? ', after its retries' : ''}.`)]);
// What the SDK assumes where the service's spec shows nothing.
const NOTES: Partial<Record<EndpointName, string>> = {
  'workflows.create': 'The workflow, 200 or 201; its build starts.',
  'workflows.get': 'The workflow.',
  'workflows.update': 'Not shown: the SDK sends the changed fields, reads a workflow.',
  'orders.get': 'Fields not shown: an id; every other field kept as received.',
  'builds.get': 'Statuses beyond building, completed, failed are accepted; logs kept as received.',
  'integrations.save': 'Record not shown: api_key may come back masked or not at all.',
  'auth.issueKey': `Not shown: the SDK takes the first string of ${KEY_FIELDS.join(', ')} (or data.*).`,
};
const pascal = (words: string) => words.replace(/(?:^|[\s.])(\w)/g, (_, c: string) => c.toUpperCase());
const schemas: Record<string, unknown> = {
  Error: { description: 'Shape not shown: any JSON or text; the SDK shows its error, message or detail as the message.' },
};
const ISSUED_KEY = { type: 'object', properties: Object.fromEntries(KEY_FIELDS.map((field) => [field, { type: 'string' }])) };
// Each model once, under its name in the table; a reader (the issued key's) is described by hand.
const named = (name: ModelName, io: 'input' | 'output') => {
  const model = MODELS[name];
  schemas[name] ??= typeof model === 'function' ? ISSUED_KEY : jsonSchemaOf(model, io);
  return ref(name);
};
function responses([name, endpoint]: [string, Endpoint]): object {
  const { list, response } = endpoint;
  if (list) {
    const plural = endpoint.path.slice(1);
    const items = { type: 'array', items: named(list.item, 'output') };
    const envelope = { type: 'object', required: ['data'], properties: { data: items, page: {}, limit: {}, total: {}, has_more: {} } };
    const read = `Envelope not shown: a bare array, or items under data, items, results or ${plural} (or data.*); paging read from page, limit, total, total_pages, has_more, next.`;
    return { 200: json({ oneOf: [envelope, items] }, read) };
  }
  if (!response) return { 200: { description: 'Response not shown: any body, or none.' }, 204: { description: 'No content.' } };
  const schema = named(response.model, 'output');
  const about = NOTES[name as EndpointName] ?? '';
  return { 200: json(schema, about), 201: json(schema, about) };
}
function operation(name: string, endpoint: Endpoint, suffix: string): object {
  const [resource = '', verb = ''] = name.split('.');
  // `listWorkflows`, `getWorkflow`; a verb that names its object (`issueKey`) stands alone.
  const noun = /[A-Z]/.test(verb) ? '' : endpoint.list ? resource : endpoint.noun;
  const body = endpoint.body && named(endpoint.body, 'input');
  const filters = (endpoint.list?.filters ?? []).map((filter) => param(filter, 'string', 'Values not shown: sent as given.'));
  return {
    operationId: verb + pascal(noun) + suffix,
    summary: `${verb} ${noun}`
      .trim()
      .replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`)
      .replace(/^\w/, (c) => c.toUpperCase()),
    requestBody: body && { required: true, ...json(body, BODY_NOTE) },
    responses: { ...responses([name, endpoint]), ...Object.fromEntries(ERRORS) },
    parameters: endpoint.path.includes('{id}') ? [ID] : endpoint.list ? [...PAGING, ...filters] : [],
    // Key issuing needs no key.
    ...(endpoint.auth === false && { security: [] }),
  };
}
const paths: Record<string, Record<string, unknown>> = {};
// Key issuing's path is whole (/v1/auth); every other path is under both prefixes.
const PREFIXES = { '/api/v1': '', '/v1': 'V1' };
for (const [name, endpoint] of Object.entries(ENDPOINTS) as [string, Endpoint][]) {
  const under = endpoint.auth === false ? { '': '' } : PREFIXES;
  for (const [prefix, suffix] of Object.entries(under)) {
    const path = prefix + endpoint.path;
    paths[path] = { ...paths[path], [endpoint.method.toLowerCase()]: operation(name, endpoint, suffix) };
  }
}
const document = {
  openapi: '3.1.0',
  info: {
    title: 'Workflow Automation Service, as workflow-automation-sdk reads it',
    version: process.env['npm_package_version'] ?? '0.0.0',
    description: 'Resources under /api/v1 (the reference) and /v1 (the quick-start); the SDK detects which one responds. Keys at /v1/auth.',
  },
  servers: [{ url: 'https://automation.example.com', description: 'Any host: the prefixes are in the paths.' }],
  security: [{ apiKey: [] }],
  paths,
  components: {
    securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'Never sent to another origin.' } },
    schemas,
  },
};
// Compact: tools read it, and indentation would double its share of the package.
process.stdout.write(`${JSON.stringify(document)}\n`);
