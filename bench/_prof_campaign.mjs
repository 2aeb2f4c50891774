import { createRequire } from 'node:module';
import { devstack } from './lib.mjs';
const require = createRequire(import.meta.url);
const pg = require('pg');
const size = Number(process.argv[2] ?? 20000);
const recipient = (k) => `+4479${String(100_000 + Math.floor(k / 90)).padStart(6, '0')}${10 + (k % 90)}`;
const postgres = await devstack.ensurePostgres();
const database = await devstack.createTestDatabase(postgres.url);
const redis = await devstack.startRedis();
const prof = { NODE_OPTIONS: `--require ${new URL('./cpu-profile.cjs', import.meta.url).pathname}`, BENCH_PROFILE_DIR: '/tmp/prof' };
const stack = await devstack.startStack({ databaseUrl: database.url, redisUrl: redis.url, dispatcherEnv: prof });
const { key, accountId } = await devstack.createAccountKey(database.url, { account: 'A', mode: 'test', rateLimitPerSecond: 10_000_000 });
const client = new pg.Client({ connectionString: database.url }); await client.connect();
const pids = Object.fromEntries(Object.entries(stack.services).map(([n, s]) => [n, s.pid ?? s.child?.pid]));
const cpu = (pid) => { try { const f = require('fs').readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return (Number(f[11]) + Number(f[12])) / 100; } catch { return NaN; } };
const fs=require('fs');const group=(re)=>fs.readdirSync('/proc').filter(d=>/^\d+$/.test(d)).reduce((t,d)=>{try{const st=fs.readFileSync(`/proc/${d}/stat`,'utf8');const comm=st.slice(st.indexOf('(')+1,st.indexOf(')'));if(!re.test(comm))return t;const f=st.split(') ')[1].split(' ');return t+(Number(f[11])+Number(f[12]))/100}catch{return t}},0);
const g0={pg:group(/postgres/),redis:group(/redis-server/)};
const before = Object.fromEntries(Object.entries(pids).map(([n, p]) => [n, cpu(p)]));
const t0 = Date.now();
for (let s = 0; s < size; s += 1000) {
  const messages = Array.from({ length: 1000 }, (_, i) => ({ recipient: recipient(s + i), content: { text: `Sale ${s + i}` } }));
  const r = await fetch(`${stack.baseUrl}/v1/messages/batch`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ channel: 'sms', messages }) });
  if (r.status !== 202) throw new Error(await r.text());
}
const t1 = Date.now();
for (;;) { const { rows } = await client.query("SELECT count(*) FILTER (WHERE status IN ('delivered','read')) d, count(*) FILTER (WHERE status='sent') s FROM messages WHERE account_id=$1", [accountId]); if (Number(rows[0].d) >= size) break; await new Promise(r => setTimeout(r, 250)); }
const t2 = Date.now();
const g1={pg:group(/postgres/),redis:group(/redis-server/)};console.log('pg cpu',(g1.pg-g0.pg).toFixed(1),'redis cpu',(g1.redis-g0.redis).toFixed(1));
const after = Object.fromEntries(Object.entries(pids).map(([n, p]) => [n, cpu(p)]));
console.log({ accept_s: (t1 - t0) / 1000, total_s: (t2 - t0) / 1000, per_s: Math.round(size / ((t2 - t0) / 1000)), cpu_s: Object.fromEntries(Object.keys(pids).map(n => [n, +(after[n] - before[n]).toFixed(1)])), pids });
await client.end(); await stack.stop(); await redis.stop(); await database.drop?.(); await postgres.stop();
