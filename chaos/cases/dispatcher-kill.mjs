// The dispatcher SIGKILLed twice under load, a new one started each time: none lost, none twice.
import { deliveredOnce, describeRefused, sleep, startMessageLoad, startWorld, untilSimSends } from '../lib.mjs';

export const name = 'dispatcher-kill';
export const target = 'none lost, none twice';

export async function run({ postgresUrl }) {
  const world = await startWorld({ postgresUrl, dispatcherEnv: { DISPATCH_CONCURRENCY: '16' } });
  try {
    const load = startMessageLoad(world, { rate: 20 });
    let dispatcher = world.stack.services.dispatcher;
    for (const round of [1, 2]) {
      await untilSimSends(world, 40 * round, `sends before kill ${round}`);
      // Kill while sends are in flight; the next dispatcher takes the stalled jobs over.
      await dispatcher.kill('SIGKILL');
      await sleep(1_000);
      dispatcher = await world.stack.startService('dispatcher');
    }
    await sleep(3_000);
    await load.stop();
    const result = await deliveredOnce(world, load.accepted, 90_000);
    return {
      ok: result.accepted > 0 && result.lost === 0 && result.duplicated === 0,
      figure: `${result.accepted} accepted, ${result.lost} lost, ${result.duplicated} twice (2 kills; refused: ${describeRefused(load.refused)})`,
      details: result,
    };
  } finally {
    await world.stop();
  }
}
