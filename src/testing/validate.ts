/**
 * Checks of request bodies and query strings. Bodies are checked with the SDK's own schemas, so the mock
 * refuses exactly what the SDK refuses before sending (test/resources/create-input.test.ts runs both).
 */
import { ValidationError, formatPath, type Issue } from '../core/errors.js';
import { safeParse, toIssues, type Schema } from '../core/schema.js';
// Through the root entry, so that a build puts the SDK's modules in one chunk, where a bundler can still drop
// what an app does not use.
import { parseWorkflowCreateParams } from '../index.js';
import { credentialsSchema } from '../resources/credentials.js';
import { integrationSaveSchema } from '../resources/integration.js';
import { workflowUpdateSchema } from '../resources/workflow.js';
import { HttpError } from './responses.js';
import type { MockAction, MockTrigger } from './types.js';

export interface WorkflowInput {
  name: string;
  platform: string;
  trigger: MockTrigger;
  actions: MockAction[];
}

export interface IntegrationInput {
  platform: string;
  api_key: string;
  label: string | null | undefined;
}

export interface Paging {
  page: number;
  limit: number;
  status: string | undefined;
}

const MAX_LIMIT = 100;
const DEFAULT_LIMIT = 20;
const POSITIVE_INTEGER = /^[1-9][0-9]*$/;

/** A 422 with the SDK's message and one `{ path, message }` per issue. */
function invalid(what: string, issues: readonly Issue[]): HttpError {
  const { message } = new ValidationError(what, issues);
  const listed = issues.map((issue) => ({ path: formatPath(issue.path), message: issue.message }));
  return new HttpError(422, message, 'validation_error', { details: { issues: listed } });
}

/** The SDK's check of `body`, failing as a 422. */
function check<T>(schema: Schema<T>, body: unknown, what: string): T {
  const result = safeParse(schema, body);
  if (result.success) return result.data;
  throw invalid(what, toIssues(result.error));
}

/** Checks the body of `POST /workflows`, as `workflows.create` does. */
export function parseWorkflowInput(body: unknown): WorkflowInput {
  try {
    return parseWorkflowCreateParams(body) as WorkflowInput;
  } catch (error) {
    throw ValidationError.is(error) ? invalid('workflow', error.issues) : error;
  }
}

/** Checks the body of `PUT /workflows/{id}`; of its fields, name, platform, trigger and actions are stored. */
export function parseWorkflowChanges(body: unknown): Partial<WorkflowInput> {
  const { name, platform, trigger, actions } = check(workflowUpdateSchema(), body, 'workflow update') as Partial<WorkflowInput>;
  return Object.fromEntries(Object.entries({ name, platform, trigger, actions }).filter(([, value]) => value !== undefined));
}

/** Checks the body of `POST /integrations`. */
export function parseIntegrationInput(body: unknown): IntegrationInput {
  return check(integrationSaveSchema(), body, 'integration') as IntegrationInput;
}

/** Checks the body of `POST /v1/auth`. */
export function parseCredentials(body: unknown): { email: string; password: string } {
  return check(credentialsSchema(), body, 'credentials');
}

/**
 * Reads `page` (default 1), `limit` (default 20, lowered to 100) and `status` from a list URL; a `page` or
 * `limit` that is not a positive integer is a 400.
 */
export function parsePaging(url: URL): Paging {
  const read = (name: string, fallback: number): number => {
    const raw = url.searchParams.get(name);
    if (raw === null) return fallback;
    if (!POSITIVE_INTEGER.test(raw)) throw new HttpError(400, `${name} must be a positive integer`, 'invalid_query');
    return Number(raw);
  };
  const status = url.searchParams.get('status');
  return {
    page: read('page', 1),
    limit: Math.min(read('limit', DEFAULT_LIMIT), MAX_LIMIT),
    status: status === null || status === '' ? undefined : status,
  };
}

/**
 * How deep objects and arrays nest in a JSON text, read without recursion: the schemas and serialisers after
 * it recurse, and a body deep enough to overflow their stack would be stored and then never served.
 */
const MAX_JSON_DEPTH = 100;

function nesting(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{' || char === '[') deepest = Math.max(deepest, ++depth);
    else if (char === '}' || char === ']') depth--;
  }
  return deepest;
}

/** The largest request body the service reads; the HTTP server stops reading one byte past it. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** The service's answer to a body over {@link MAX_BODY_BYTES}, whether read or only declared. */
export const BODY_TOO_LARGE = { status: 413, message: `Request body exceeds ${MAX_BODY_BYTES} bytes`, code: 'payload_too_large' } as const;

/**
 * Reads a request body as JSON; one over {@link MAX_BODY_BYTES} is a 413, an empty body or malformed JSON a
 * 400, one nested too deep a 422.
 */
export async function readJson(request: Request): Promise<unknown> {
  const bytes = new Uint8Array(await request.arrayBuffer());
  if (bytes.byteLength > MAX_BODY_BYTES) {
    throw new HttpError(BODY_TOO_LARGE.status, BODY_TOO_LARGE.message, BODY_TOO_LARGE.code);
  }
  const text = new TextDecoder().decode(bytes);
  if (text.trim() === '') throw new HttpError(400, 'Request body is empty; expected JSON', 'invalid_json');
  const depth = nesting(text);
  if (depth > MAX_JSON_DEPTH) {
    const message = `Request body nests objects and arrays ${depth} levels deep; the service accepts at most ${MAX_JSON_DEPTH}`;
    throw new HttpError(422, message, 'validation_error', { details: { issues: [{ path: '', message }] } });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new HttpError(400, 'Request body is not valid JSON', 'invalid_json');
  }
}
