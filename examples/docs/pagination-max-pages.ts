import { Client } from 'workflow-automation-sdk';

const client = new Client();

// At most 10 pages of 100: a server that makes endless distinct pages cannot keep the loop going.
for await (const workflow of client.workflows.list({ limit: 100 }, { maxPages: 10 })) {
  console.log(workflow.id);
}
