import { Agent, request } from 'node:http';
import { startGatewayHarness, textMessage, type GatewayHarness } from './support/gateway-harness';

// SIGTERM under keep-alive load (docs/architecture.md, shutdown): clients that keep sending on their
// connections are told to close them, nothing in flight is reset, and the process exits 0.
jest.setTimeout(60_000);

const CLIENTS = 6;

let h: GatewayHarness;

beforeAll(async () => {
  h = await startGatewayHarness();
});

afterAll(async () => {
  await h?.close();
});

type Outcome =
  | { kind: 'response'; status: number; connectionClose: boolean; body: string }
  /** A NEW connection refused: the listener is closed; no request was written. */
  | { kind: 'refused' }
  /** A request written on an open connection that got no complete answer: the defect under test. */
  | { kind: 'failed'; code: string };

/** One request on the agent's connection, classified so that a refused new connection is never a failure. */
function send(agent: Agent, method: 'GET' | 'POST', path: string, key?: string): Promise<Outcome> {
  return new Promise((resolve) => {
    let connected = false;
    const body = method === 'POST' ? JSON.stringify(textMessage()) : undefined;
    const req = request(
      {
        host: '127.0.0.1',
        port: h.gateway.port,
        method,
        path,
        agent,
        headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            kind: 'response',
            status: res.statusCode ?? 0,
            connectionClose: res.headers.connection === 'close',
            body: Buffer.concat(chunks).toString(),
          }),
        );
        res.on('aborted', () => resolve({ kind: 'failed', code: 'response aborted' }));
        res.on('error', (error: NodeJS.ErrnoException) => resolve({ kind: 'failed', code: error.code ?? error.message }));
      },
    );
    req.on('socket', (socket) => {
      if (socket.connecting) socket.once('connect', () => (connected = true));
      else connected = true;
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      resolve(!connected && error.code === 'ECONNREFUSED' ? { kind: 'refused' } : { kind: 'failed', code: error.code ?? error.message });
    });
    req.end(body);
  });
}

/** Sends one request after another on one keep-alive connection until a request gets no answer. */
async function keepSending(next: (agent: Agent) => Promise<Outcome>, pauseMs = 0): Promise<Outcome[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const outcomes: Outcome[] = [];
  try {
    for (;;) {
      const outcome = await next(agent);
      outcomes.push(outcome);
      if (outcome.kind !== 'response') return outcomes;
      if (pauseMs > 0) await new Promise((r) => setTimeout(r, pauseMs));
    }
  } finally {
    agent.destroy();
  }
}

function exitOf(child: GatewayHarness['gateway']['child'], timeoutMs: number): Promise<{ code: number | null; signal: string | null }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the gateway did not exit within ${timeoutMs} ms of SIGTERM`));
    }, timeoutMs);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal });
    });
  });
}

describe('SIGTERM under keep-alive load', () => {
  it('answers every request written on an open connection, tells clients to close, and exits 0', async () => {
    const { key } = await h.key({ mode: 'test' });
    const senders = Array.from({ length: CLIENTS }, () => keepSending((agent) => send(agent, 'POST', '/v1/messages', key)));
    const prober = keepSending((agent) => send(agent, 'GET', '/readyz'), 20);

    await new Promise((r) => setTimeout(r, 1_500));
    const exit = exitOf(h.gateway.child, 25_000);
    h.gateway.child.kill('SIGTERM');
    const { code, signal } = await exit;
    const clients = await Promise.all(senders);
    const probes = await prober;

    expect({ code, signal }).toEqual({ code: 0, signal: null });
    const outcomes = clients.flat();
    expect(outcomes.filter((o) => o.kind === 'failed')).toEqual([]);
    // Each client went on until its connection was closed and a new one was refused.
    expect(clients.map((c) => c[c.length - 1].kind)).toEqual(Array(CLIENTS).fill('refused'));

    const responses = outcomes.filter((o): o is Extract<Outcome, { kind: 'response' }> => o.kind === 'response');
    expect(responses.length).toBeGreaterThan(CLIENTS);
    for (const res of responses) {
      const body = JSON.parse(res.body) as { id?: string; status?: unknown; code?: string };
      if (res.status === 202) expect(body).toMatchObject({ id: expect.stringMatching(/^msg_/), status: 'queued' });
      else expect({ status: res.status, code: body.code }).toEqual({ status: 429, code: 'rate_limited' });
    }
    expect(responses.some((r) => r.connectionClose)).toBe(true);
    // Every 202 answer stands for a job in the queue.
    const accepted = responses.filter((r) => r.status === 202).length;
    expect(await h.messageQueue.getJobCountByTypes('waiting', 'prioritized', 'delayed', 'active')).toBe(accepted);

    // The readiness prober's last answer, on the connection it kept, was 503 and closed that connection.
    expect(probes.filter((o) => o.kind === 'failed')).toEqual([]);
    const lastProbe = probes[probes.length - 2];
    expect(lastProbe).toMatchObject({ kind: 'response', status: 503, connectionClose: true });
    expect(JSON.parse((lastProbe as { body: string }).body)).toMatchObject({ code: 'unavailable' });

    expect(h.gateway.logs()).not.toMatch(/"level":"error"/);
  });
});
