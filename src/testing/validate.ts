/**
 * Checks of request bodies and query strings. Written by hand rather than shared with the SDK's schemas, so
 * that the mock stays an independent judge of what the SDK sends.
 */

import { isHttpUrl } from '../core/url.js';
import { HttpError } from './responses.js';
import type { JsonObject, JsonValue, MockAction, MockTrigger } from './types.js';

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

// The spec: identifiers "lower case with underscores". Digits are let through, since the SDK may allow them.
const IDENTIFIER = /^[a-z][a-z0-9_]*$/;
const POSITIVE_INTEGER = /^[1-9][0-9]*$/;

interface Issue {
  path: string;
  message: string;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

function invalid(what: string, issues: Issue[]): HttpError {
  const list = issues.map((issue) => `${issue.path} ${issue.message}`).join('; ');
  return new HttpError(422, `Invalid ${what}: ${list}`, 'validation_error', {}, { issues: issues.map((i) => ({ ...i })) });
}

function checkTrigger(value: unknown, issues: Issue[]): MockTrigger | undefined {
  if (!isObject(value)) {
    issues.push({ path: 'trigger', message: 'must be an object' });
    return undefined;
  }
  if (!isNonEmptyString(value.type)) issues.push({ path: 'trigger.type', message: 'must be a non-empty string' });
  if (value.url !== undefined && (typeof value.url !== 'string' || !isHttpUrl(value.url))) {
    issues.push({ path: 'trigger.url', message: 'must be an http(s) URL' });
  }
  return structuredClone(value) as MockTrigger;
}

function checkActions(value: unknown, issues: Issue[]): MockAction[] | undefined {
  if (!Array.isArray(value)) {
    issues.push({ path: 'actions', message: 'must be an array' });
    return undefined;
  }
  value.forEach((action: unknown, i) => {
    const at = `actions[${i}]`;
    if (!isObject(action)) {
      issues.push({ path: at, message: 'must be an object' });
      return;
    }
    for (const field of ['app', 'action'] as const) {
      const name = action[field];
      if (typeof name !== 'string' || !IDENTIFIER.test(name)) {
        issues.push({ path: `${at}.${field}`, message: 'must be lower case with underscores' });
      }
    }
    if (action.config !== undefined && !isObject(action.config)) {
      issues.push({ path: `${at}.config`, message: 'must be an object' });
    }
  });
  return structuredClone(value) as MockAction[];
}

/** Checks the body of `POST /workflows`; throws a 422 {@link HttpError} listing every problem. */
export function parseWorkflowInput(body: unknown): WorkflowInput {
  if (!isObject(body)) throw invalid('workflow', [{ path: '(body)', message: 'must be a JSON object' }]);
  const issues: Issue[] = [];
  if (!isNonEmptyString(body.name)) issues.push({ path: 'name', message: 'must be a non-empty string' });
  if (!isNonEmptyString(body.platform)) issues.push({ path: 'platform', message: 'must be a non-empty string' });
  const trigger = checkTrigger(body.trigger, issues);
  const actions = checkActions(body.actions, issues);
  if (issues.length > 0 || !trigger || !actions) throw invalid('workflow', issues);
  return { name: body.name as string, platform: body.platform as string, trigger, actions };
}

/**
 * Checks the body of `PUT /workflows/{id}`: any of name, platform, trigger and actions, each checked as on
 * creation; other fields are ignored. At least one of the four is required.
 */
export function parseWorkflowChanges(body: unknown): Partial<WorkflowInput> {
  if (!isObject(body)) throw invalid('workflow update', [{ path: '(body)', message: 'must be a JSON object' }]);
  const issues: Issue[] = [];
  const changes: Partial<WorkflowInput> = {};
  for (const field of ['name', 'platform'] as const) {
    const value = body[field];
    if (value === undefined) continue;
    if (isNonEmptyString(value)) changes[field] = value;
    else issues.push({ path: field, message: 'must be a non-empty string' });
  }
  if (body.trigger !== undefined) changes.trigger = checkTrigger(body.trigger, issues);
  if (body.actions !== undefined) changes.actions = checkActions(body.actions, issues);
  if (issues.length === 0 && Object.keys(changes).length === 0) {
    issues.push({ path: '(body)', message: 'must contain at least one of name, platform, trigger, actions' });
  }
  if (issues.length > 0) throw invalid('workflow update', issues);
  return changes;
}

/** Checks the body of `POST /integrations`: `platform` and `api_key` required, `label` an optional string. */
export function parseIntegrationInput(body: unknown): IntegrationInput {
  if (!isObject(body)) throw invalid('integration', [{ path: '(body)', message: 'must be a JSON object' }]);
  const issues: Issue[] = [];
  if (!isNonEmptyString(body.platform)) issues.push({ path: 'platform', message: 'must be a non-empty string' });
  if (!isNonEmptyString(body.api_key)) issues.push({ path: 'api_key', message: 'must be a non-empty string' });
  const label: JsonValue | undefined = body.label;
  if (label !== undefined && label !== null && typeof label !== 'string') {
    issues.push({ path: 'label', message: 'must be a string' });
  }
  if (issues.length > 0) throw invalid('integration', issues);
  return { platform: body.platform as string, api_key: body.api_key as string, label: label as string | null | undefined };
}

/** Checks the body of `POST /v1/auth`. */
export function parseCredentials(body: unknown): { email: string; password: string } {
  if (!isObject(body)) throw invalid('credentials', [{ path: '(body)', message: 'must be a JSON object' }]);
  const issues: Issue[] = [];
  if (!isNonEmptyString(body.email)) issues.push({ path: 'email', message: 'must be a non-empty string' });
  if (typeof body.password !== 'string' || body.password === '') {
    issues.push({ path: 'password', message: 'must be a non-empty string' });
  }
  if (issues.length > 0) throw invalid('credentials', issues);
  return { email: body.email as string, password: body.password as string };
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

/** Reads a request body as JSON; an empty body or malformed JSON is a 400. */
export async function readJson(request: Request): Promise<unknown> {
  const text = await request.text();
  if (text.trim() === '') throw new HttpError(400, 'Request body is empty; expected JSON', 'invalid_json');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new HttpError(400, 'Request body is not valid JSON', 'invalid_json');
  }
}
