import { Client } from 'workflow-automation-sdk';

interface Secret {
  value: string;
  expiresAt: number;
}

declare function readSecret(name: string): Promise<Secret>; // your secret store

// A function is called before every request (sync or async), so a rotated key is used without a new client.
let current: Secret | undefined;
export const client = new Client({
  baseUrl: 'https://automation.example.com',
  apiKey: async () => {
    if (!current || current.expiresAt <= Date.now()) current = await readSecret('wfa-api-key');
    return current.value;
  },
});

// Or log in with an email and password: the key is issued by POST /v1/auth and kept by the new client.
export const loggedIn = await Client.login({
  baseUrl: 'https://automation.example.com',
  email: 'ana@example.com',
  password: process.env.WFA_PASSWORD ?? '',
});
