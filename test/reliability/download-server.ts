/** The mock server of the 1 GiB download test, in its own process so that its buffers are not the client's RSS. */
import { startMockServer } from '../../src/testing/index.js';

const [size, resetAfterBytes, resets] = process.argv.slice(2).map(Number);
const server = await startMockServer({ buildDurationMs: 0, artifacts: { size, resetAfterBytes, resets } });
process.stdout.write(`${JSON.stringify({ url: server.url, apiKey: server.apiKey })}\n`);
process.on('SIGTERM', () => {
  void server.close().then(() => process.exit(0));
});
