import type { IncomingHttpHeaders } from 'node:http';
import { Switchboard, WebhookVerificationError } from '@switchboard/sdk';

const client = new Switchboard({ baseUrl: 'http://127.0.0.1:8080', apiKey: process.env.SWITCHBOARD_API_KEY ?? '' }); // sk_test_… or sk_live_…

async function main(): Promise<void> {
  // Send: an Idempotency-Key is added for you and reused if the request has to be retried.
  const message = await client.messages.send({ channel: 'sms', recipient: '+447911123456', text: 'Your code is 123456' });

  // Read its status until it settles.
  let status: string = message.status;
  while (!['delivered', 'read', 'failed', 'undelivered'].includes(status)) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    status = (await client.messages.get(message.id)).status;
  }
  console.log(message.id, status);
}

// Verify a webhook delivery: pass the raw body and the request headers.
// With express: app.post('/hooks', express.raw({ type: 'application/json' }), (req, res) => res.sendStatus(handle(req.body, req.headers)));
export function handle(rawBody: Buffer, headers: IncomingHttpHeaders): number {
  try {
    const event = client.webhooks.verify(rawBody, headers, process.env.SWITCHBOARD_WEBHOOK_SECRET ?? ''); // "whsec_…"
    console.log(event.type, event.data.id); // de-duplicate on event.id
    return 204;
  } catch (error) {
    if (error instanceof WebhookVerificationError) return 400;
    throw error;
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
