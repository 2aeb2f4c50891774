// The gateway SIGTERMed under load: every request it had started to read is answered (0 failed in-flight), it
// exits within 25 s, and a new gateway on the same port delivers every 202 once.
import { createKeepAliveClient } from '../keepalive-client.mjs';
import { deliveredOnce, describeRefused, sleep, startMessageLoad, startWorld } from '../lib.mjs';

export const name = 'gateway-sigterm';
export const target = '0 failed in-flight requests, exit < 25 s';
const EXIT_LIMIT_S = 25;

export async function run({ postgresUrl }) {
  const world = await startWorld({ postgresUrl });
  try {
    // Through established keep-alive connections, as behind a proxy; see keepalive-client.mjs for why.
    const client = createKeepAliveClient(world.stack.baseUrl, world.key, { sockets: 16 });
    await client.warm();
    const load = startMessageLoad(world, { rate: 100, maxInFlight: 16, api: client.request });
    await sleep(3_000);
    // Signal while requests are in flight (several started, none answered yet), not between two of them.
    const busyBy = Date.now() + 5_000;
    while (load.inFlight() < 3 && Date.now() < busyBy) await sleep(1);
    const gateway = world.stack.services.gateway;
    const inFlightAtSignal = load.inFlight();
    const signalledAt = Date.now();
    const exited = new Promise((resolve) => gateway.child.once('exit', resolve));
    gateway.child.kill('SIGTERM');
    const exitCode = await Promise.race([exited, sleep(EXIT_LIMIT_S * 2 * 1000).then(() => 'still running')]);
    const exitSeconds = (Date.now() - signalledAt) / 1000;
    if (exitCode === 'still running') await gateway.kill('SIGKILL');
    // Refused connections come after the listener closed, once the gateway closed a pooled connection after its
    // last answer: those never reached this gateway (a load balancer sends them elsewhere). Any other error or
    // non-202 answer is an in-flight request the drain failed.
    await sleep(500);
    await load.stop();
    client.close();
    const failed = [...load.refused.status.values(), ...[...load.refused.errors].filter(([code]) => code !== 'ECONNREFUSED').map(([, n]) => n)].reduce(
      (a, b) => a + b,
      0,
    );
    // A new gateway on the same port: every 202 answered before the signal must still be delivered once.
    await world.stack.startService('api-gateway');
    const result = await deliveredOnce(world, load.accepted, 90_000);
    return {
      ok: failed === 0 && exitCode === 0 && exitSeconds < EXIT_LIMIT_S && result.lost === 0 && result.duplicated === 0,
      figure: `${failed} failed of ${inFlightAtSignal} in flight at the signal, ${load.sent()} sent (${result.accepted} accepted; not 202: ${describeRefused(load.refused)}); exit ${exitCode} after ${exitSeconds.toFixed(1)} s; ${result.lost} lost, ${result.duplicated} twice`,
      details: { ...result, failed, in_flight_at_signal: inFlightAtSignal, exit_code: exitCode, exit_seconds: exitSeconds },
    };
  } finally {
    await world.stop();
  }
}
