/**
 * The tools are the endpoint table: one per endpoint (or a reason it has none), each named, described, checked
 * and hinted from it, with JSON Schemas a client can use.
 */
import { describe, expect, test } from 'vitest';
import { ENDPOINT_DESCRIPTIONS } from '../../src/resources/endpoint-descriptions.js';
import { ENDPOINTS, type Endpoint, type EndpointName } from '../../src/resources/endpoints.js';
import { NOT_TOOLS, toolName, tools } from '../../src/tools/index.js';
import { toolJsonSchemas } from '../../scripts/mcp-schemas.mjs';

const TABLE = Object.entries(ENDPOINTS) as [EndpointName, Endpoint][];

describe('the tools', () => {
  test('one per endpoint of the table, unless NOT_TOOLS says why not, and none for an endpoint the table lacks', () => {
    const made = tools().flatMap((tool) => (tool.endpoint ? [tool.endpoint] : []));
    expect(made.sort()).toEqual(
      TABLE.map(([name]) => name)
        .filter((name) => !(name in NOT_TOOLS))
        .sort(),
    );
    expect(Object.keys(NOT_TOOLS).every((name) => name in ENDPOINTS)).toBe(true);
  });

  test('named after their endpoint in snake case, each name unique', () => {
    expect(toolName('workflows.list')).toBe('workflows_list');
    expect(toolName('auth.issueKey')).toBe('auth_issue_key');
    const names = tools().map((tool) => tool.name);
    expect(new Set(names).size).toBe(names.length);
    for (const tool of tools()) if (tool.endpoint) expect(tool.name).toBe(toolName(tool.endpoint));
  });

  test.each(TABLE.filter(([name]) => !(name in NOT_TOOLS)))(
    '%s: described from its one description, hinted from its method',
    (name, endpoint) => {
      const tool = tools().find((candidate) => candidate.endpoint === name)!;
      expect(tool.description).toBe(ENDPOINT_DESCRIPTIONS[name]);
      expect(tool.hints).toEqual({
        readOnlyHint: endpoint.method === 'GET',
        destructiveHint: endpoint.method === 'DELETE',
        idempotentHint: endpoint.method !== 'POST' || endpoint.idempotent === true,
        openWorldHint: false,
      });
    },
  );

  test.each(tools().map((tool) => [tool.name, tool] as const))(
    '%s: arguments and result are JSON Schema objects, every type named',
    (name, tool) => {
      const { input, output } = toolJsonSchemas()[name]! as { input: Record<string, unknown>; output?: Record<string, unknown> };
      expect(input['type']).toBe('object');
      expect(output === undefined).toBe(tool.result === undefined);
      if (output) expect(output['type']).toBe('object');
      // An empty list of types matches nothing: a client would refuse every value.
      expect(JSON.stringify([input, output])).not.toContain('"type":[]');
    },
  );

  test('workflows_create_and_wait takes what workflows_create takes, flat: the same schema', () => {
    const all = tools();
    const named = (name: string) => all.find((tool) => tool.name === name)!;
    expect(named('workflows_create_and_wait').arguments).toBe(named('workflows_create').arguments);
  });

  test("arguments are checked by the SDK's own schemas, naming the field", () => {
    const create = tools().find((tool) => tool.name === 'workflows_create')!;
    const result = create.arguments['~standard'].validate({ name: '', platform: 'zapier', trigger: { type: 'webhook' }, actions: [] });
    expect(result.issues).toEqual([expect.objectContaining({ path: ['name'], message: 'must not be empty' })]);
    const list = tools().find((tool) => tool.name === 'workflows_list')!;
    expect(list.arguments['~standard'].validate({ limit: 0 }).issues?.[0]?.path).toEqual(['limit']);
    expect(toolJsonSchemas()['workflows_list']!.input).toMatchObject({ properties: { limit: { type: ['integer'] } } });
  });
});
