import fc from 'fast-check';
import * as core from 'zod/v4/core';
import { describe, expect, it, vi } from 'vitest';
import {
  array,
  looseObject,
  nonEmptyString,
  nullableNumber,
  optional,
  positiveInt,
  refine,
  safeParse,
  strictObject,
  string,
  toIssues,
  unknown,
  type Schema,
} from '../../src/core/schema.js';
import { passes, validateResponse } from '../../src/core/validate.js';
import { BuildSchema } from '../../src/resources/builds.js';
import { IntegrationSchema } from '../../src/resources/integrations.js';
import { OrderSchema } from '../../src/resources/orders.js';
import { WorkflowSchema } from '../../src/resources/workflows.js';

// As `listEndpoint` builds a list's parameters: a strict object, so an unknown parameter is refused.
const listParams = strictObject({ page: optional(positiveInt()), limit: optional(positiveInt()), status: optional(nonEmptyString()) });

const workflow = {
  id: 'wf_1',
  name: 'Orders to Slack',
  platform: 'zapier',
  status: 'active',
  created_at: '2026-01-01T00:00:00Z',
  trigger: { type: 'webhook', url: 'https://example.com/hook' },
  actions: [{ app: 'slack', action: 'send_message', config: { channel: '#orders' } }],
  added_later: { by: 'the service' },
};

describe('validateResponse', () => {
  it('returns a valid body itself, unknown fields and all, rather than a copy', () => {
    const body = JSON.parse(JSON.stringify([workflow, workflow])) as unknown;
    const result = validateResponse(array(WorkflowSchema), body);
    expect(result.success).toBe(true);
    expect(result.data).toBe(body);
  });

  it("answers an invalid body with zod's issues, at the bad field", () => {
    const result = validateResponse(WorkflowSchema, { ...workflow, actions: [{ app: 'slack' }] });
    expect(result.success).toBe(false);
    expect(toIssues(result.error!)).toEqual([{ path: ['actions', 0, 'action'], message: 'is required', code: 'invalid_type' }]);
  });

  it('accepts a missing optional field and refuses a missing required one', () => {
    const schema = looseObject({ id: string(), note: optional(string()) });
    expect(validateResponse(schema, { id: 'a' }).success).toBe(true);
    expect(validateResponse(schema, { note: 'n' }).success).toBe(false);
    // A required field that takes any value is still required: zod says so, and so must the check.
    const anything = looseObject({ data: unknown() });
    expect(validateResponse(anything, { data: null }).success).toBe(true);
    expect(toIssues(validateResponse(anything, {}).error!)).toEqual([{ path: ['data'], message: 'is required', code: 'invalid_type' }]);
  });

  it('runs refinements, on fields and on objects', () => {
    const schema = looseObject({ n: nullableNumber() }, refine((o: { n: unknown }) => o.n !== 0, 'must not be zero'));
    expect(validateResponse(schema, { n: null }).success).toBe(true);
    expect(toIssues(validateResponse(schema, { n: 'x' }).error!)[0]?.message).toBe('must be a number or null');
    expect(toIssues(validateResponse(schema, { n: 0 }).error!)[0]?.message).toBe('must not be zero');
  });

  it("leaves an own __proto__ key to zod, whose copy drops it and pollutes nothing", () => {
    const body = JSON.parse('{"id":"a","__proto__":{"polluted":true}}') as object;
    const result = validateResponse(looseObject({ id: string() }), body);
    expect(result.success).toBe(true);
    expect(result.data).not.toBe(body);
    expect(Object.hasOwn(result.data as object, '__proto__')).toBe(false);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it('leaves a field named like an inherited key to zod, which reads the prototype as zod always does', () => {
    const schema = looseObject({ toString: optional(string()) });
    expect(validateResponse(schema, {})).toEqual(safeParse(schema, {}));
  });

  it('refuses unknown keys of a strict object, at each key, through zod', () => {
    const strict = strictObject({ id: string() });
    expect(validateResponse(strict, { id: 'a' }).success).toBe(true);
    expect(toIssues(validateResponse(strict, { id: 'a', extra: 1 }).error!)).toEqual([
      { path: ['extra'], message: 'is not a known field', code: 'unrecognized_keys' },
    ]);
  });

  it('validates schemas holding other zod classes with zod alone', () => {
    const numbers = array(new core.$ZodNumber({ type: 'number' }) as Schema<number>);
    expect(passes(numbers, [1, 2])).toBe(false);
    expect(validateResponse(numbers, [1, 2]).data).toEqual([1, 2]);
    expect(validateResponse(numbers, [1, '2']).success).toBe(false);
  });

  it('gives a refinement that answers anything but true to zod, which decides', () => {
    const truthy = unknown(refine(() => 1 as unknown as boolean, 'never shown'));
    expect(validateResponse(truthy, 'x')).toEqual({ success: true, data: 'x' });
  });

  it('validates with zod alone where code cannot be compiled (a strict CSP), trying only once', async () => {
    // A fresh copy of the module: whether `Function` works is remembered for the module's life.
    vi.resetModules();
    const fresh = await import('../../src/core/validate.js');
    const real = globalThis.Function;
    let tries = 0;
    globalThis.Function = function refused() {
      tries++;
      throw new EvalError('Code generation from strings disallowed for this context');
    } as unknown as FunctionConstructor;
    try {
      const schema = array(looseObject({ id: string() }));
      const body = [{ id: 'a', extra: 1 }];
      const valid = fresh.validateResponse(schema, body);
      expect(valid).toEqual({ success: true, data: body });
      expect(valid.data).not.toBe(body); // zod's copy: no check was made
      expect(toIssues(fresh.validateResponse(schema, [{ id: 1 }]).error!)).toEqual([{ path: [0, 'id'], message: 'must be a string', code: 'invalid_type' }]);
      expect(fresh.validateResponse(looseObject({ other: string() }), { other: 'x' }).success).toBe(true);
      expect(tries).toBe(1);
    } finally {
      globalThis.Function = real;
    }
  });

  // The check only decides when zod's copy can be skipped: whatever the body, the answer is zod's.
  it.each([
    ['workflows', WorkflowSchema, workflow],
    ['builds', BuildSchema, { id: 'bld_1', status: 'completed', progress: 100, download_url: 'https://x.example/b.zip' }],
    ['orders', OrderSchema, { id: 1, status: 'paid', total: '9.99', currency: 'EUR', created_at: '2026-01-01' }],
    ['integrations', IntegrationSchema, { id: 'int_1', platform: 'shopify', label: null, api_key: 'shpa…1234' }],
    ['list parameters (strict)', listParams, { page: 2, limit: 20, status: 'active' }],
  ])('agrees with zod on any change to a valid %s body', (_name, schema: Schema, valid: Record<string, unknown>) => {
    const json = fc.jsonValue({ maxDepth: 2 });
    const changed = fc.record({ key: fc.constantFrom(...Object.keys(valid), 'extra', '__proto__'), value: fc.option(json, { nil: undefined }) });
    fc.assert(
      fc.property(fc.array(changed, { maxLength: 3 }), fc.boolean(), (changes, asList) => {
        const body: Record<string, unknown> = JSON.parse(JSON.stringify(valid)) as Record<string, unknown>;
        for (const { key, value } of changes) {
          if (value === undefined) delete body[key];
          else Object.defineProperty(body, key, { value, enumerable: true, writable: true, configurable: true });
        }
        const [checked, value] = asList ? [array(schema), [valid, body]] : [schema, body];
        const ours = validateResponse(checked, value);
        const zods = safeParse(checked, value);
        expect(ours.success).toBe(zods.success);
        if (ours.success) expect(ours.data).toStrictEqual(zods.data);
        else expect(toIssues(ours.error!)).toEqual(toIssues(zods.error!));
      }),
      { numRuns: 300 },
    );
  });
});
