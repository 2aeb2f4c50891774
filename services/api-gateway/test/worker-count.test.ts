import { EnvReader } from '@switchboard/runtime';
import { parseGatewayWorkers, readGatewayWorkers } from '../src/cluster/worker-count';

describe('GATEWAY_WORKERS', () => {
  it('is one process when unset', () => {
    expect(readGatewayWorkers(new EnvReader({}))).toBe(1);
  });

  it('takes a count, or auto for one per core', () => {
    expect(parseGatewayWorkers('3', 2)).toBe(3);
    expect(parseGatewayWorkers('auto', 2)).toBe(2);
    expect(parseGatewayWorkers(' AUTO ', 16)).toBe(16);
  });

  it.each(['0', '65', 'two', '1.5', '-1'])('refuses %j, naming the variable', (raw) => {
    const r = new EnvReader({ GATEWAY_WORKERS: raw });
    readGatewayWorkers(r);
    expect(r.problems).toEqual([expect.stringContaining('GATEWAY_WORKERS is invalid')]);
  });
});
