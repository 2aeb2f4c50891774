// Baseline for bench/accept.mjs: the cheapest express 5 handler that answers the same 202 body.
import express from 'express';

const app = express();
app.use(express.json());
const body = JSON.stringify({
  id: 'msg_01JBENCHBENCHBENCHBENCHBENC',
  status: 'queued',
  channel: 'sms',
  recipient: '+447911123400',
  created_at: new Date().toISOString(),
  estimated_delivery: 'within 5 seconds',
  cost_units: 1,
});
app.post('/v1/messages', (_req, res) => {
  res.status(202).type('application/json').send(body);
});
const server = app.listen(Number(process.argv[2]), '127.0.0.1', () => process.stdout.write('ready\n'));
process.once('SIGTERM', () => server.close(() => process.exit(0)));
