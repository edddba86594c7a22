/**
 * `workflows.create` sends a valid input without zod's parse and copy: the hand-written check must never pass
 * an input the create schema refuses (it may refuse more: zod then names the field).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeParse } from '../../src/core/schema.js';
import { WorkflowCreateSchema, plainCreateInput } from '../../src/resources/workflows.js';

const valid = {
  name: 'Notify on order',
  platform: 'zapier',
  trigger: { type: 'webhook', url: 'https://example.com/hook' },
  actions: [{ app: 'slack', action: 'send_message', config: { channel: '#orders' } }],
};

const anyValue = fc.oneof(
  fc.constantFrom(undefined, null, '', 'x', 'send_message', 'Slack', 'https://e.com', 'javascript:alert(1)', 'not a url', 0, true),
  fc.array(fc.constant({ app: 'slack', action: 'send_message' }), { maxLength: 2 }),
  fc.constant({}),
  fc.constant([]),
  fc.constant(new Date(0)),
);

/** The valid input with one value, at any depth, replaced. */
const mutated = fc
  .tuple(
    fc.constantFrom(
      'name',
      'platform',
      'trigger',
      'trigger.type',
      'trigger.url',
      'actions',
      'actions.0',
      'actions.0.app',
      'actions.0.action',
      'actions.0.config',
    ),
    anyValue,
  )
  .map(([path, value]) => {
    const copy = structuredClone(valid) as Record<string, unknown>;
    const keys = path.split('.');
    let at = copy as Record<string, unknown>;
    for (const key of keys.slice(0, -1)) at = at[key] as Record<string, unknown>;
    at[keys.at(-1)!] = value;
    return copy;
  });

describe('the create input fast check', () => {
  it('passes the valid input, and one without trigger.url or config', () => {
    expect(plainCreateInput(valid)).toBe(true);
    expect(plainCreateInput({ ...valid, trigger: { type: 'webhook' }, actions: [{ app: 'a', action: 'b' }] })).toBe(true);
  });

  it('never passes an input the schema refuses', () => {
    fc.assert(
      fc.property(mutated, (input) => {
        if (plainCreateInput(input)) expect(safeParse(WorkflowCreateSchema, input).success).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('passes what the schema accepts, for these mutations (so the fast path is the usual one)', () => {
    fc.assert(
      fc.property(mutated, (input) => {
        if (safeParse(WorkflowCreateSchema, input).success) expect(plainCreateInput(input)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
