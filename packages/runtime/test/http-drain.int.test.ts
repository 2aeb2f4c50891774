import { Agent, createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHttpDrain, type HttpDrainOptions } from '../src/http-drain';

interface Answer {
  status: number;
  connection: string | undefined;
}

let server: Server;
let releaseSlow: () => void = () => undefined;

async function startServer(options: HttpDrainOptions) {
  server = createServer((req, res) => {
    if (req.url === '/slow') {
      releaseSlow = () => res.end('slow');
      return;
    }
    res.end('ok');
  });
  const drain = createHttpDrain(server, options);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { drain, port: (server.address() as AddressInfo).port };
}

afterEach(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function get(port: number, agent: Agent, path = '/'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
    })
      .on('error', reject)
      .end();
  });
}

function socketClosed(agent: Agent): Promise<void> {
  const [socket] = Object.values(agent.freeSockets).flat();
  return new Promise((resolve) => socket?.once('close', () => resolve()));
}

describe('HTTP drain', () => {
  it('closes a connection idle for longer than the grace at once and refuses new connections', async () => {
    const { drain, port } = await startServer({ idleGraceMs: 50 });
    const agent = new Agent({ keepAlive: true });
    expect(await get(port, agent)).toEqual({ status: 200, connection: 'keep-alive' });
    await new Promise((r) => setTimeout(r, 100));
    const closed = socketClosed(agent);
    const drained = drain.drain();
    expect(drain.isDraining()).toBe(true);
    await closed;
    await drained;
    await expect(get(port, agent)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    agent.destroy();
  });

  it('answers a request that arrives on a recently used connection with Connection: close, then closes it', async () => {
    const { drain, port } = await startServer({ idleGraceMs: 5_000 });
    const agent = new Agent({ keepAlive: true });
    await get(port, agent);
    const drained = drain.drain();
    expect(await get(port, agent)).toEqual({ status: 200, connection: 'close' });
    await drained;
    agent.destroy();
  });

  it('sends Connection: close on a response that was in progress when the drain began', async () => {
    const { drain, port } = await startServer({ idleGraceMs: 5_000 });
    const agent = new Agent({ keepAlive: true });
    const slow = get(port, agent, '/slow');
    await new Promise((r) => setTimeout(r, 50));
    const drained = drain.drain();
    releaseSlow();
    expect(await slow).toEqual({ status: 200, connection: 'close' });
    await drained;
    agent.destroy();
  });
});
