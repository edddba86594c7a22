// The tools' JSON Schemas, made from the SDK's schemas with zod's public toJSONSchema at build time
// (`npm run build -w workflow-automation-mcp` writes them to packages/mcp/dist/schemas.json): the SDK package ships no JSON Schema code.
import { tools } from '../src/tools/index.js';
import { jsonSchemaOf } from '../src/tools/json-schema.js';
import { schemaOf } from '../src/tools/schemas.js';

/** Each tool's arguments (`input`) and result (`output`), by tool name. */
export function toolJsonSchemas(): Record<string, { input: object; output?: object }> {
  return Object.fromEntries(
    tools().map((tool) => [
      tool.name,
      {
        input: jsonSchemaOf(schemaOf(tool.arguments), 'input'),
        ...(tool.result && { output: jsonSchemaOf(schemaOf(tool.result), 'output') }),
      },
    ]),
  );
}

if (process.argv.includes('--print')) process.stdout.write(`${JSON.stringify(toolJsonSchemas())}\n`);
