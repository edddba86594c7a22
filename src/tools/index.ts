/**
 * workflow-automation-sdk/tools: the SDK's endpoints as tools for an agent (what the MCP server
 * `workflow-automation-mcp` serves), and what a tool host shares with `wfa`: its connection rule and masking.
 *
 * @packageDocumentation
 */
export { NOT_TOOLS, toolName, tools, type Tool, type ToolHints, type ToolRunOptions } from './tools.js';
export type { ToolIssue, ToolSchema } from './schemas.js';
export { ENDPOINTS, type EndpointName } from '../resources/endpoints.js';
export { ENDPOINT_DESCRIPTIONS } from '../resources/endpoint-descriptions.js';
export { resolveConnection, type Connection } from '../cli/config.js';
export { ConfigError } from '../cli/errors.js';
export { mask, masked } from '../cli/mask.js';
