import { createRequire } from 'node:module';

// The document ships in the package: point Prism, Postman or a code generator at this path.
const path = createRequire(import.meta.url).resolve('workflow-automation-sdk/openapi.json');
console.log(path); // …/node_modules/workflow-automation-sdk/openapi.json
// npx @stoplight/prism-cli mock "$path" --errors   (a contract-checking mock of the service)
