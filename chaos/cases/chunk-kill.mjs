// Campaigns as chunks (docs/messages.md#chunk-lifecycle) beside single sends, the dispatcher SIGKILLed twice in
// the middle of a chunk and a new one started each time: no message of a batch or of the single sends lost,
// none sent twice.
import { randomBytes } from 'node:crypto';
import { deliveredOnce, describeRefused, devstack, simSendsPerText, sleep, startMessageLoad, startWorld } from '../lib.mjs';

export const name = 'chunk-kill';
export const target = 'none lost, none twice';

const BATCHES = 4;
const BATCH_SIZE = 1_000;
/** Recipients …10 to …99 behave normally in carrier-sim (docs/sandbox.md#sandbox-numbers). */
const recipientOf = (i) => `+447911${2000 + Math.floor(i / 90)}${10 + (i % 90)}`;

export async function run({ postgresUrl }) {
  const world = await startWorld({ postgresUrl });
  try {
    const load = startMessageLoad(world, { rate: 10 });
    const tag = randomBytes(3).toString('hex');
    const campaign = [];
    for (let b = 0; b < BATCHES; b += 1) {
      const messages = Array.from({ length: BATCH_SIZE }, (_, i) => ({ recipient: recipientOf(i), content: { text: `chunk ${tag} ${b * BATCH_SIZE + i}` } }));
      const res = await world.api('POST', '/v1/messages/batch', { channel: 'sms', messages });
      if (res.status !== 202) throw new Error(`batch answered ${res.status}: ${JSON.stringify(res.body)}`);
      campaign.push(...res.body.results.map((r, i) => ({ id: r.id, text: messages[i].content.text, channel: 'sms' })));
    }
    const campaignSent = async () => [...(await simSendsPerText(world)).keys()].filter((text) => text.startsWith(`chunk ${tag} `)).length;
    let dispatcher = world.stack.services.dispatcher;
    for (const round of [1, 2]) {
      // Kill while a chunk is part sent: its slice's sends in flight, the rest of it waiting.
      await devstack.eventually(campaignSent, (n) => n >= round * 700, { what: `campaign sends before kill ${round}`, timeoutMs: 90_000, intervalMs: 20 });
      await dispatcher.kill('SIGKILL');
      await sleep(1_000);
      dispatcher = await world.stack.startService('dispatcher');
    }
    await sleep(3_000);
    await load.stop();
    const result = await deliveredOnce(world, [...campaign, ...load.accepted], 150_000);
    return {
      ok: result.lost === 0 && result.duplicated === 0 && campaign.length === BATCHES * BATCH_SIZE,
      figure: `${result.accepted} accepted (${campaign.length} in batches), ${result.lost} lost, ${result.duplicated} twice (2 kills mid-chunk; refused: ${describeRefused(load.refused)})`,
      details: result,
    };
  } finally {
    await world.stop();
  }
}
