/** `wfa workflows list|get|delete|create`. */
import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Workflow, WorkflowCreateParams } from '../index.js';
import { readBounded } from '../core/bounded-read.js';
import { ValidationError } from '../core/errors.js';
import { expectPositionals, parseCommand } from './args.js';
import { createGroup, showHelp, type Command } from './command.js';
import { CONNECTION_HELP, CONNECTION_OPTIONS, createClient } from './config.js';
import { printJson, type Context } from './context.js';
import { UsageError } from './errors.js';
import { ExitCode } from './exit-codes.js';
import { readPiped, utf8Text } from './input.js';
import { printable } from './printable.js';
import { resourceCommands } from './resource-commands.js';
import { lastBuildOf, WAIT_EXIT_CODES_HELP, WAIT_HELP, WAIT_OPTIONS, waitSettingsIfAsked } from './wait-options.js';

const CREATE_USAGE = 'wfa workflows create --file <workflow.json> [--wait]';

/** A workflow file, or one piped on stdin, is read up to this many bytes: far more than any real one, and memory stays bounded. */
const MAX_WORKFLOW_BYTES = 16 * 1024 * 1024;

/** A file's bytes, or `undefined` past `max`: a FIFO or `/dev/zero` given by mistake must not fill memory. */
async function readFileWithin(path: string, max: number): Promise<Uint8Array | undefined> {
  const handle = await open(path, 'r');
  try {
    const next = async () => {
      const { bytesRead, buffer } = await handle.read({ buffer: Buffer.alloc(64 * 1024) });
      return bytesRead === 0 ? { done: true } : { value: buffer.subarray(0, bytesRead) };
    };
    return (await readBounded(next, max)).bytes;
  } finally {
    await handle.close();
  }
}

/**
 * Reads the workflow definition from a file, or stdin for `-`, and checks it as `workflows.create` would, so
 * that a file that is not JSON or not a workflow is a usage error naming `--file` and each field, before any
 * request. A UTF-8 BOM before the JSON, as some editors write, is skipped.
 */
async function readWorkflowFile(file: string, context: Context): Promise<WorkflowCreateParams> {
  const name = file === '-' ? 'stdin' : file;
  let text: string;
  if (file === '-') text = await readPiped(context, 'the workflow', MAX_WORKFLOW_BYTES, UsageError);
  else {
    let bytes: Uint8Array | undefined;
    try {
      bytes = await readFileWithin(resolve(context.cwd, file), MAX_WORKFLOW_BYTES);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const reason = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : (error as Error).message;
      throw new UsageError(`--file: cannot read ${JSON.stringify(file)}: ${reason}`);
    }
    if (bytes === undefined) throw new UsageError(`--file: ${file} is longer than ${MAX_WORKFLOW_BYTES} bytes`);
    // As stdin is read: bytes that are not UTF-8 are refused, not read as U+FFFD.
    text = utf8Text(bytes, `--file: ${file}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    // Only where: V8's message may quote the file, and a workflow's config can hold a token.
    const where = /at position \d+(?: \(line \d+ column \d+\))?/.exec((error as Error).message)?.[0];
    throw new UsageError(`--file: ${name} is not valid JSON${where ? ` (${where})` : ''}`);
  }
  const { parseWorkflowCreateParams } = await import('../index.js');
  try {
    return parseWorkflowCreateParams(value);
  } catch (error) {
    // The SDK's message names each field that is wrong, and quotes no value.
    if (ValidationError.is(error)) throw new UsageError(`--file: ${name}: ${error.message}`);
    throw error;
  }
}

const createCommand: Command = {
  name: 'create',
  summary: 'Create a workflow from a JSON file (and wait for its build with --wait)',
  help: `Usage: ${CREATE_USAGE}

Creates a workflow, which starts its build, and prints it as JSON on stdout. With --wait, shows the build's
progress on stderr and prints {"workflow": …, "build": …} once the build ends (also when it failed or timed
out, with the last state seen; the exit code says which).

Options:
  --file <path>          the workflow definition, a JSON object (- reads it from stdin):
                         {"name": "Notify on order", "platform": "zapier",
                          "trigger": {"type": "webhook", "url": "https://example.com/hook"},
                          "actions": [{"app": "slack", "action": "send_message", "config": {"channel": "#orders"}}]}
  --wait                 wait for the build (exit codes below)
${WAIT_HELP}

${CONNECTION_HELP}

${WAIT_EXIT_CODES_HELP}`,
  async run(args, context) {
    const { values, positionals } = parseCommand(
      args,
      { ...CONNECTION_OPTIONS, ...WAIT_OPTIONS, file: { type: 'string', short: 'f' }, wait: { type: 'boolean' } },
      CREATE_USAGE,
    );
    if (values.help) return showHelp(context, this.help);
    expectPositionals(positionals, [], CREATE_USAGE);
    if (!values.file) throw new UsageError('missing --file <workflow.json>', CREATE_USAGE);
    let created: Workflow | undefined;
    // Read before the file, so a bad --timeout is said first. Progress is labelled with the build's id, as
    // `wfa wait-build` labels it, once the workflow is created.
    const wait = waitSettingsIfAsked(values, context, () => created?.build_id ?? 'build', CREATE_USAGE);
    const input = await readWorkflowFile(values.file, context);
    const client = await createClient(values, context);
    if (!wait) {
      printJson(context.stdout, await client.workflows.create(input, { signal: context.signal }));
      return ExitCode.Ok;
    }
    const { options, display } = wait;
    try {
      const result = await client.workflows.createAndWait(input, {
        ...options,
        onCreated: (workflow) => {
          created = workflow;
          // Said at once, so the workflow's id is known even if the wait then fails or is interrupted.
          context.stderr.write(`${printable(`created ${workflow.id} (build ${workflow.build_id ?? 'unknown'})`)}\n`);
        },
      });
      display.finish();
      printJson(context.stdout, result);
      return ExitCode.Ok;
    } catch (error) {
      display.finish();
      const build = lastBuildOf(error);
      if (created && build) printJson(context.stdout, { workflow: created, build });
      throw error;
    }
  },
};

export const workflows: Command = createGroup(
  'workflows',
  'List, read, delete and create workflows',
  resourceCommands('workflows', {
    own: [createCommand],
    details: { list: "\nExample:\n  wfa workflows list --status active --all | jq -r '.[].id'" },
  }),
);
