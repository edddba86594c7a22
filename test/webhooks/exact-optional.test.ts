/**
 * The public webhook and testing option types under `exactOptionalPropertyTypes`: a fixture that passes
 * `undefined` to every optional field compiles with the flag on (TypeScript's API, only that file's errors).
 */
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { expect, test } from 'vitest';

const fixture = fileURLToPath(new URL('./fixtures/exact-optional.ts', import.meta.url));

test('every optional field of the webhook and testing options takes `| undefined` with exactOptionalPropertyTypes', () => {
  const config = ts.getParsedCommandLineOfConfigFile(
    fileURLToPath(new URL('../../tsconfig.json', import.meta.url)),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  const program = ts.createProgram([fixture], { ...config?.options, exactOptionalPropertyTypes: true, noEmit: true });
  const errors = ts
    .getPreEmitDiagnostics(program, program.getSourceFile(fixture))
    .map((diagnostic) => `${diagnostic.start}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`);
  expect(errors).toEqual([]);
}, 60_000);
