/**
 * `workflows.create` sends a valid input without zod's parse and copy: the hand-written check must never pass
 * an input the create schema refuses (it may refuse more: zod then names the field).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WorkflowCreateSchema } from '../../src/resources/workflow.js';
import { plainCreateInput } from '../../src/resources/workflows.js';
import { CREATE_INPUT_PATHS, itAgreesWithSchema, oneValueReplaced } from '../helpers/fast-check.js';

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
const mutated = oneValueReplaced(valid, CREATE_INPUT_PATHS, anyValue);

describe('the create input fast check', () => {
  it('passes the valid input, and one without trigger.url or config', () => {
    expect(plainCreateInput(valid)).toBe(true);
    expect(plainCreateInput({ ...valid, trigger: { type: 'webhook' }, actions: [{ app: 'a', action: 'b' }] })).toBe(true);
  });

  itAgreesWithSchema(plainCreateInput, WorkflowCreateSchema, mutated);
});
