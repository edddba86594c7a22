/**
 * What only Node gets: the `node:http` transport and zod's compiled object parser. Built, this is the package's
 * `#node-parts` import (package.json `imports`), which every other runtime resolves to `node-parts.browser.ts`:
 * neither reaches a browser bundle, not even as a chunk never loaded. The file writer has its own (file-writer.ts).
 */
import { $ZodObjectJIT } from 'zod/v4/core';

/** The `node:http` transport, loaded on a client's first request. */
export const loadNodeTransport: (() => Promise<typeof import('./node-transport.js')>) | undefined = () => import('./node-transport.js');

/** zod's object parser that compiles each shape once with `new Function` (schema.ts). A function: read once every module is loaded. */
export const compiledObjects: (() => typeof $ZodObjectJIT.init) | undefined = () => $ZodObjectJIT.init;
