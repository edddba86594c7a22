import { createHash } from 'node:crypto';
import { Client, ResponseValidationError } from 'workflow-automation-sdk';

const client = new Client();
const build = await client.waitForBuild('bld_123');

// To a file (Node, Bun, Deno): written beside it under a temporary name, renamed once complete.
const { path, bytes } = await client.builds.downloadToFile(build, 'build.zip', {
  maxBytes: 500 * 1024 * 1024, // refuse a larger artifact (before reading, when its size is declared)
  signal: AbortSignal.timeout(10 * 60_000),
  onProgress: ({ bytes, total }) => console.log(`${bytes} of ${total ?? '?'} bytes`),
});
console.log(`Saved ${bytes} bytes to ${path}`);

// As a Web stream (every runtime), read as fast as you consume it.
const hash = createHash('sha256');
try {
  for await (const chunk of await client.builds.download(build)) hash.update(chunk);
  console.log('sha256', hash.digest('hex'));
} catch (error) {
  if (ResponseValidationError.is(error)) console.error('Truncated or too large:', error.issues[0]?.message);
  else throw error;
}
