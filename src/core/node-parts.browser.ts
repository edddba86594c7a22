/** `#node-parts` for browsers, Workers and every runtime but Node (package.json `imports`): no Node-only part. */
import type * as NodeParts from './node-parts.js';

export const loadNodeTransport: typeof NodeParts.loadNodeTransport = undefined;
export const compiledObjects: typeof NodeParts.compiledObjects = undefined;
