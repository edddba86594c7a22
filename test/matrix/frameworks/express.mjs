/**
 * Express 4 or 5 (`node express.mjs express4|express5`): the SDK's Node handler mounted before `express.json()`,
 * so the raw body reaches it; then the smoke suite against it.
 */
import { toNodeHandler } from 'workflow-automation-sdk/webhooks';
import { RESULT_PREFIX, runSmoke, webhookHandler } from '../smoke.mjs';

const { default: express } = await import(process.argv[2]);
const app = express();
app.all('/webhook', toNodeHandler(webhookHandler)); // before any body parser
app.use(express.json()); // the app's other routes
app.post('/other', (req, res) => res.json(req.body));

const server = await new Promise((resolve) => {
  const s = app.listen(0, '127.0.0.1', () => resolve(s));
});
try {
  const results = await runSmoke(JSON.parse(process.env.WFA_MATRIX), { receiverUrl: `http://127.0.0.1:${server.address().port}/webhook` });
  console.log(RESULT_PREFIX + JSON.stringify(results));
} finally {
  server.close();
}
