// Where the CPU of a bench run goes, per message (docs/performance/dispatch.md#dispatch): CPU time of every process of
// the stack (user + system from /proc/<pid>/stat), the bench's own load generator, Redis commands and
// PostgreSQL transactions, taken before and after a run and divided by the messages of that run.
// An extra figure beside the bench's own; it does not change what the bench measures.
import { cpuMs } from './process-tree.mjs';

async function redisCommandCalls(redisClient) {
  const info = await redisClient.info('commandstats');
  const calls = {};
  for (const line of info.split('\n')) {
    const match = /^cmdstat_([^:]+):calls=(\d+)/.exec(line);
    if (match) calls[match[1]] = Number(match[2]);
  }
  return calls;
}

/** The PostgreSQL backends serving this database: their CPU is the database's share of the run. */
async function postgresSnapshot(pgClient) {
  const { rows } = await pgClient.query(
    `SELECT (SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = current_database()) AS xacts,
            array_agg(pid) AS pids FROM pg_stat_activity WHERE datname = current_database()`,
  );
  return { xacts: Number(rows[0].xacts), pids: rows[0].pids ?? [] };
}

/**
 * Takes a snapshot now; `finish(messages)` takes another and returns the cost per message.
 * `processes` maps a name to a pid (the services, Redis).
 */
export async function startCostMeter({ processes, redisClient, pgClient }) {
  const take = async () => {
    const cpu = {};
    for (const [name, pid] of Object.entries(processes)) cpu[name] = cpuMs(pid);
    const self = process.cpuUsage();
    cpu.bench = (self.user + self.system) / 1000;
    const pg = await postgresSnapshot(pgClient);
    const pgCpu = {};
    for (const pid of pg.pids) pgCpu[pid] = cpuMs(pid);
    return { cpu, pgCpu, xacts: pg.xacts, redis: await redisCommandCalls(redisClient) };
  };
  const before = await take();
  return async function finish(messages) {
    const after = await take();
    const perMessage = (value) => Number((value / messages).toFixed(3));
    const cpuMsPerMessage = {};
    for (const name of Object.keys(after.cpu)) cpuMsPerMessage[name] = perMessage(after.cpu[name] - before.cpu[name]);
    // Backends that opened during the run count from zero; those that closed are lost (a lower bound).
    let postgresMs = 0;
    for (const [pid, ms] of Object.entries(after.pgCpu)) postgresMs += ms - (before.pgCpu[pid] ?? 0);
    cpuMsPerMessage.postgres = perMessage(postgresMs);
    cpuMsPerMessage.total = Number(
      Object.values(cpuMsPerMessage)
        .reduce((a, b) => a + b, 0)
        .toFixed(3),
    );
    const redisCalls = {};
    let redisTotal = 0;
    for (const [command, calls] of Object.entries(after.redis)) {
      const delta = calls - (before.redis[command] ?? 0);
      if (delta > 0) redisCalls[command] = perMessage(delta);
      redisTotal += Math.max(0, delta);
    }
    const topRedis = Object.fromEntries(
      Object.entries(redisCalls)
        .sort((a, b) => b[1] - a[1])
        .slice(0, 12),
    );
    return {
      cpu_ms_per_message: cpuMsPerMessage,
      redis_commands_per_message: perMessage(redisTotal),
      redis_top_commands_per_message: topRedis,
      postgres_transactions_per_message: perMessage(after.xacts - before.xacts),
    };
  };
}
