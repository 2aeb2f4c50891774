// Redis SIGKILLed under load and restarted on the same AOF (appendfsync always): every 202 delivered, none twice.
import { deliveredOnce, describeRefused, devstack, sleep, startMessageLoad, startWorld, untilSimSends } from '../lib.mjs';

export const name = 'redis-kill';
export const target = 'every 202 delivered, none twice';

export async function run({ postgresUrl }) {
  const world = await startWorld({ postgresUrl });
  try {
    const load = startMessageLoad(world, { rate: 20 });
    await untilSimSends(world, 40, 'the first sends before the crash');
    const { port, dir } = world.redis;
    await world.redis.kill();
    const downAt = Date.now();
    await sleep(3_000);
    world.redis = await devstack.startRedis({ port, dir });
    const downSeconds = (Date.now() - downAt) / 1000;
    await sleep(5_000);
    await load.stop();
    const result = await deliveredOnce(world, load.accepted, 90_000);
    return {
      ok: result.accepted > 0 && result.lost === 0 && result.duplicated === 0,
      figure: `${result.accepted} accepted, ${result.lost} lost, ${result.duplicated} twice (Redis down ${downSeconds.toFixed(1)} s; refused meanwhile: ${describeRefused(load.refused)})`,
      details: result,
    };
  } finally {
    await world.stop();
  }
}
