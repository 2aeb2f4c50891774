import type { Request, RequestHandler, Response } from 'express';
import { UnauthorizedError } from '@switchboard/domain';
import { partitionOf } from '@switchboard/queues';
import { partitionFrontDoor } from '../src/partitions/partition-front-door';

/** Which of the stub apps answered a request. */
function stubApps(count: number) {
  const answered: number[] = [];
  const apps: RequestHandler[] = Array.from({ length: count }, (_, i) => () => void answered.push(i));
  return { apps, answered };
}

const request = (headers: Record<string, string>) => ({ headers }) as unknown as Request;
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('the partition front door', () => {
  const keys: Record<string, string> = { 'Bearer sk_test_one': 'acc_one', 'Bearer sk_test_two': 'acc_two' };
  const authenticator = async (authorization: string | undefined) => {
    const accountId = authorization ? keys[authorization] : undefined;
    if (!accountId) throw new UnauthorizedError();
    return { keyId: 'key', accountId, mode: 'test' as const, scopes: [], rateLimitPerSecond: null };
  };

  it('hands a request to the app of its API key’s account, and of its console session’s', async () => {
    const { apps, answered } = stubApps(4);
    const door = partitionFrontDoor({ apps, authenticator, consoleAccount: async (token) => (token === 'session-two' ? 'acc_two' : undefined) });
    door(request({ authorization: 'Bearer sk_test_one' }), {} as Response, () => undefined);
    door(request({ cookie: 'sb_console_session=session-two' }), {} as Response, () => undefined);
    await settle();
    expect(answered).toEqual([partitionOf('acc_one', 4), partitionOf('acc_two', 4)]);
  });

  it('hands a request without an account, or with a refused key, to partition 0’s app, which answers it', async () => {
    const { apps, answered } = stubApps(3);
    const door = partitionFrontDoor({ apps, authenticator, consoleAccount: async () => undefined });
    door(request({}), {} as Response, () => undefined);
    door(request({ authorization: 'Bearer sk_test_unknown' }), {} as Response, () => undefined);
    door(request({ cookie: 'sb_console_session=ended' }), {} as Response, () => undefined);
    await settle();
    expect(answered).toEqual([0, 0, 0]);
  });
});
