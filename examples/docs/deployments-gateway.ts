import { Client } from 'workflow-automation-sdk';

// The resources at https://gw.example.com/wfa/v1/workflows, keys issued at https://gw.example.com/wfa/v1/auth.
export const behindGateway = new Client({ baseUrl: 'https://gw.example.com', apiPrefix: '/wfa/v1', apiKey: process.env.WFA_API_KEY });

// No prefix at all: https://wfa.internal.example/workflows; keys issued elsewhere, with `authPath`.
export const noPrefix = await Client.login({
  baseUrl: 'https://wfa.internal.example',
  apiPrefix: '',
  authPath: '/login/api-keys',
  email: 'ops@example.com',
  password: process.env.WFA_PASSWORD ?? '',
});
