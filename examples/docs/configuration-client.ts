import { Client, type ClientOptions } from 'workflow-automation-sdk';

const options: ClientOptions = {
  apiKey: process.env.WFA_API_KEY, // the default: WFA_API_KEY (where process.env exists)
  baseUrl: 'https://automation.example.com/api/v1', // a trailing /v1 or /api/v1 is accepted; default: WFA_BASE_URL
  apiPrefix: 'auto', // or '/api/v1' or '/v1' to skip detection
  timeoutMs: 30_000, // per attempt; default 60 000
  maxRetries: 3, // retries after the first attempt; default 2, 0 disables them
  headers: { 'X-Client-Name': 'order-sync/1.4.0' }, // sent with every request
  validateResponses: true, // check response bodies against the SDK's schemas (the default)
  logger: console, // anything with error/warn/info/debug
  logLevel: 'warn', // 'off' | 'error' | 'warn' | 'info' | 'debug'
};

export const client = new Client(options);

// What a client shows of itself never includes the key.
console.log(JSON.stringify(client)); // {"baseUrl":"https://automation.example.com","apiPrefix":"/api/v1",...,"apiKey":"[redacted]"}
