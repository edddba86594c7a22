import { defineConfig } from 'tsup';

// The bin only: the MCP SDK and workflow-automation-sdk stay dependencies, imported, never bundled.
export default defineConfig({
  entry: { main: 'src/main.ts' },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  dts: false,
  sourcemap: false,
  clean: true,
  removeNodeProtocol: false,
});
