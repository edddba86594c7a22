/**
 * Writes src/resources/types.generated.ts: the public types of the resources as plain interfaces, derived
 * from their zod schemas, so that the published .d.ts names no zod type (consumers would type-check zod's
 * declarations, and typedoc could not document the fields).
 *
 *   npm run gen:types               # write the file
 *   npm run gen:types -- --check    # exit 1 if the file is out of date
 *
 * It walks each schema's definition at runtime (`schema._zod.def`). Field docs come from the schemas
 * (`doc()` in src/core/schema.ts); the doc of each type is in the table below. The schemas are typed by the
 * interfaces (`parsesTo<T>()`), which compiles only while the two are the same, and test/types/generated.test.ts
 * fails when this file is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { docOf } from '../src/core/schema.js';
import { CredentialsSchema } from '../src/resources/auth.js';
import { BuildSchema, BuildStatusSchema } from '../src/resources/builds.js';
import { IntegrationSaveSchema, IntegrationSchema } from '../src/resources/integrations.js';
import { OrderSchema } from '../src/resources/orders.js';
import { WorkflowCreateSchema, WorkflowSchema, WorkflowStatusSchema, WorkflowUpdateSchema } from '../src/resources/workflows.js';

/** The file written, relative to the repository. */
export const OUTPUT = 'src/resources/types.generated.ts';

/** One exported type: an interface for an object schema, or the known values of an open string. */
export interface Entry {
  name: string;
  schema: object;
  doc: string;
}

const example = (code: string): string => `@example\n\`\`\`ts\n${code}\n\`\`\``;

/** The types, in the order they are written. A schema listed here is referred to by name wherever it is used. */
const entries: Entry[] = [
  {
    name: 'WorkflowStatus',
    schema: WorkflowStatusSchema,
    doc: `Workflow statuses seen so far. \`Workflow['status']\` accepts any other string too.\n\n${example(
      "const status: WorkflowStatus = 'active';\nclient.workflows.list({ status });",
    )}`,
  },
  {
    name: 'Workflow',
    schema: WorkflowSchema,
    doc: `A workflow as returned by the service.\n\n${example(
      "const wf: Workflow = await client.workflows.get('wf_123');\nwf.status; // 'building' | 'active' | ... | (any other string)",
    )}`,
  },
  {
    name: 'WorkflowCreateParams',
    schema: WorkflowCreateSchema,
    doc: `What \`workflows.create\` takes. Extra fields are sent as given.\n\n${example(
      [
        'const input: WorkflowCreateParams = {',
        "  name: 'Notify on order',",
        "  platform: 'zapier',",
        "  trigger: { type: 'webhook', url: 'https://example.com/hook' },",
        "  actions: [{ app: 'slack', action: 'send_message', config: { channel: '#orders' } }],",
        '};',
      ].join('\n'),
    )}`,
  },
  {
    name: 'WorkflowUpdateParams',
    schema: WorkflowUpdateSchema,
    doc: `What \`workflows.update\` takes: the fields to change, at least one.\n\n${example(
      "await client.workflows.update('wf_123', { name: 'Renamed' });",
    )}`,
  },
  {
    name: 'BuildStatus',
    schema: BuildStatusSchema,
    doc: `Build statuses the SDK knows. \`Build['status']\` accepts any other string too, and a wait treats it as still running.\n\n${example(
      "const done = (status: BuildStatus | (string & {})) => status === 'completed';",
    )}`,
  },
  {
    name: 'Build',
    schema: BuildSchema,
    doc: `A build's state as returned by the service.\n\n${example(
      "const build: Build = await client.builds.get('bld_1');\nif (build.status === 'building') console.log(`${build.progress ?? 0}%`);",
    )}`,
  },
  {
    name: 'Order',
    schema: OrderSchema,
    doc: `An order as returned by the service. Fields beyond \`id\` and \`status\` are not specified; they are kept.\n\n${example(
      "const order: Order = await client.orders.get('ord_1');\norder['amount']; // unknown: read it with a check of your own",
    )}`,
  },
  {
    name: 'Integration',
    schema: IntegrationSchema,
    doc: `A saved integration as returned by the service.\n\n${example(
      "const saved: Integration = await client.integrations.save({ platform: 'shopify', api_key: 'shpat_…', label: 'Store' });",
    )}`,
  },
  {
    name: 'IntegrationSaveParams',
    schema: IntegrationSaveSchema,
    doc: `What \`integrations.save\` takes.\n\n${example(
      "const input: IntegrationSaveParams = { platform: 'shopify', api_key: process.env.SHOPIFY_KEY!, label: 'Main store' };",
    )}`,
  },
  {
    name: 'Credentials',
    schema: CredentialsSchema,
    doc: `What \`auth.issueKey\` and \`Client.login\` take.\n\n${example(
      "const credentials: Credentials = { email: 'demo@example.com', password: 'demo' };",
    )}`,
  },
];

/** The parts of a zod definition read here; any other `type` is refused, so a new kind is never mistyped. */
interface Def {
  type: string;
  shape?: Record<string, Schema>;
  catchall?: Schema;
  innerType?: Schema;
  element?: Schema;
}
interface Schema {
  _zod: { def: Def };
}

const WIDTH = 120;
const indentUnit = '  ';

/** Generates the file's text: from the table above, or from `list` (the generator's own tests). */
export function generateTypes(list: readonly Entry[] = entries): string {
  const names = new Map(list.map((entry) => [entry.schema, entry.name]));
  const blocks = list.map(({ name, schema, doc }) => {
    const comment = `${docComment(doc, '')}\n`;
    const known = docOf(schema)?.known;
    if (known) return `${comment}export type ${name} = ${literals(known, name)};\n`;
    const def = defOf(schema, name);
    if (def.type !== 'object') throw new Error(`${name}: only object schemas and open strings become types, got ${def.type}`);
    return `${comment}export interface ${name} ${objectBody(def, '', name, names)}\n`;
  });
  return [
    '// Generated by scripts/gen-types.ts from the schemas in src/resources/: do not edit. Run `npm run gen:types`.',
    '// Field docs are written next to the schema fields (`doc()`); the doc of each type is in scripts/gen-types.ts.',
    '',
    blocks.join('\n'),
  ].join('\n');
}

function defOf(schema: object, where: string): Def {
  const def = (schema as Partial<Schema>)._zod?.def;
  if (!def) throw new Error(`${where}: not a zod schema`);
  return def;
}

/** A field's TypeScript type; `optional` and `nullable` add `| undefined` and `| null`. */
function typeOf(schema: Schema, indent: string, where: string, names: Map<object, string>): string {
  const def = defOf(schema, where);
  const recorded = docOf(schema);
  const named = names.get(schema);
  if (recorded?.known) {
    const known = named ?? (recorded.known.length ? literals(recorded.known, where) : undefined);
    return known ? `${known} | (string & {})` : 'string';
  }
  if (named) return named;
  if (recorded?.type) return recorded.type;
  switch (def.type) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'unknown':
      return def.type;
    case 'optional':
    case 'nullable': {
      const inner = typeOf(def.innerType!, indent, where, names);
      if (inner === 'unknown') return inner;
      return `${inner} | ${def.type === 'optional' ? 'undefined' : 'null'}`;
    }
    case 'array': {
      const element = typeOf(def.element!, indent, `${where}[]`, names);
      return /^[\w.]+$/.test(element) ? `${element}[]` : `Array<${element}>`;
    }
    case 'object': {
      if (Object.keys(def.shape ?? {}).length === 0 && isLoose(def)) return 'Record<string, unknown>';
      return objectBody(def, indent, where, names);
    }
    default:
      throw new Error(`${where}: scripts/gen-types.ts does not know the zod type "${def.type}"; teach it, or use a helper of src/core/schema.ts`);
  }
}

function isLoose(def: Def): boolean {
  return def.catchall !== undefined && defOf(def.catchall, 'catchall').type === 'unknown';
}

/** `{ ... }` with a documented line per field, and the index signature of a loose object. */
function objectBody(def: Def, indent: string, where: string, names: Map<object, string>): string {
  const inner = indent + indentUnit;
  const lines: string[] = [];
  for (const [key, field] of Object.entries(def.shape ?? {})) {
    const optional = defOf(field, `${where}.${key}`).type === 'optional';
    const description = describe(field);
    if (!description) throw new Error(`${where}.${key} has no description: wrap its schema in doc()`);
    lines.push(docComment(description, inner));
    lines.push(`${inner}${propertyName(key)}${optional ? '?' : ''}: ${typeOf(field, inner, `${where}.${key}`, names)};`);
  }
  if (def.catchall !== undefined) {
    const catchall = defOf(def.catchall, `${where} catchall`).type;
    if (catchall === 'unknown') {
      lines.push(docComment('Any other field, passed through as it is: the service may add fields at any time.', inner));
      lines.push(`${inner}[key: string]: unknown;`);
    } else if (catchall !== 'never') {
      throw new Error(`${where}: a catchall of type "${catchall}" is not supported`);
    }
  }
  return `{\n${lines.join('\n')}\n${indent}}`;
}

/** The description of a field, on its schema or on the schema inside `optional`/`nullable`. */
function describe(schema: Schema): string | undefined {
  for (let current: Schema | undefined = schema; current; current = current._zod.def.innerType) {
    const description = docOf(current)?.description;
    if (description) return description;
  }
  return undefined;
}

function literals(values: readonly string[], where: string): string {
  if (values.length === 0) throw new Error(`${where}: an open string without known values is just z.string()`);
  return values.map((value) => `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`).join(' | ');
}

function propertyName(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? key : `'${key.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}

/** A JSDoc comment: one line when it fits, else wrapped, keeping code blocks as written. */
function docComment(text: string, indent: string): string {
  const single = `${indent}/** ${text} */`;
  if (!text.includes('\n') && single.length <= WIDTH) return single;
  const lines: string[] = [];
  let code = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) code = !code;
    if (code || line.startsWith('```') || line === '') lines.push(line);
    else lines.push(...wrap(line, WIDTH - indent.length - 3));
  }
  return `${indent}/**\n${lines.map((line) => `${indent} *${line ? ` ${line}` : ''}`).join('\n')}\n${indent} */`;
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const path = fileURLToPath(new URL(`../${OUTPUT}`, import.meta.url));
  const text = generateTypes();
  const current = (() => {
    try {
      return readFileSync(path, 'utf8');
    } catch {
      return undefined;
    }
  })();
  if (process.argv.includes('--check')) {
    if (current !== text) {
      console.error(`${OUTPUT} is out of date: run \`npm run gen:types\``);
      process.exitCode = 1;
    }
  } else if (current === text) {
    console.log(`${OUTPUT} is up to date`);
  } else {
    writeFileSync(path, text);
    console.log(`wrote ${OUTPUT}`);
  }
}
