/**
 * A workflow answer that passes the hand-written check is used as received, without zod's parse and copy: the
 * check must never pass an answer the schema refuses (it may refuse more: zod then names the field).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CreatedWorkflowSchema, WorkflowSchema } from '../../src/resources/workflow.js';
import { plainCreatedWorkflow, plainWorkflow } from '../../src/resources/workflows.js';
import { CREATE_INPUT_PATHS, itAgreesWithSchema, oneValueReplaced } from '../helpers/fast-check.js';

const valid = {
  id: 'wf_1',
  name: 'Notify on order',
  platform: 'zapier',
  status: 'active',
  created_at: '2026-01-01T00:00:00Z',
  build_id: 'bld_1',
  trigger: { type: 'webhook', url: 'https://example.com/hook' },
  actions: [{ app: 'slack', action: 'send_message', config: { channel: '#orders' } }],
  extra: { kept: true },
};

const anyValue = fc.oneof(
  fc.constantFrom(undefined, null, '', 'x', 0, true),
  fc.array(fc.constant({ app: 'slack', action: 'send_message' }), { maxLength: 2 }),
  fc.constant({}),
  fc.constant([]),
);

/** An answer's fields: the create input's, and what the service adds. */
const PATHS = ['id', 'status', 'created_at', 'build_id', ...CREATE_INPUT_PATHS];

/** The valid answer with one value, at any depth, replaced. */
const mutated = oneValueReplaced(valid, PATHS, anyValue);

describe.each([
  ['workflow', plainWorkflow, WorkflowSchema],
  ['created workflow', plainCreatedWorkflow, CreatedWorkflowSchema],
] as const)('the %s answer fast check', (_, plain, schema) => {
  it('passes the valid answer, and one without the optional fields', () => {
    expect(plain(valid)).toBe(true);
    const { trigger, actions, ...rest } = valid;
    expect(plain(rest)).toBe(true);
  });

  itAgreesWithSchema(plain, schema, mutated);
});
