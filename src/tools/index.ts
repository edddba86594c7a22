/**
 * The SDK's endpoints as tools for an agent, and what the MCP server shares with `wfa` (its connection rule and
 * masking). Not a published entry: `packages/mcp` bundles it (docs/design.md says why).
 */
export { NOT_TOOLS, toolName, tools, type Tool, type ToolHints, type ToolRunOptions } from './tools.js';
export type { ToolIssue, ToolSchema } from './schemas.js';
export { resolveConnection, type Connection } from '../cli/config.js';
export { ConfigError } from '../cli/errors.js';
export { mask, masked } from '../cli/mask.js';
