import { readFileSync } from 'node:fs';
import { Agent } from 'node:https';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { Client } from 'workflow-automation-sdk';

// Through a proxy, which sees only a CONNECT to the service: the key travels inside the tunnel.
export const viaProxy = new Client({ agent: new HttpsProxyAgent('http://user:password@proxy.corp.example:3128') });
// A client certificate and a private CA, at most 16 sockets.
export const mutualTls = new Client({
  agent: new Agent({
    keepAlive: true,
    maxSockets: 16,
    cert: readFileSync('client.pem'),
    key: readFileSync('client.key'),
    ca: readFileSync('ca.pem'),
  }),
});
