import { createSipTrunk, type SipTrunk } from '../src';
import { freeUdpPort } from './support/free-port';
import { startSipp, type SippProcess } from './support/sipp.process';

// Real SIPp peers on 127.0.0.1; our UA binds 127.0.0.2 (sip.js answers 404 itself for a next hop on its own address).
jest.setTimeout(30_000);

describe('SIP trunk against SIPp: call outcomes', () => {
  let sipp: SippProcess | undefined;
  let trunk: SipTrunk | undefined;

  const trunkTo = async (port: number, extra: Partial<Parameters<typeof createSipTrunk>[0]> = {}) =>
    createSipTrunk({ host: '127.0.0.1', port, callerId: '+15550001', bindAddress: '127.0.0.2', localPort: 0, ...extra });

  afterEach(async () => {
    await trunk?.close();
    await sipp?.stop();
    trunk = undefined;
    sipp = undefined;
  });

  it.each([
    [486, 'Busy Here', 'busy', 'busy'],
    [600, 'Busy Everywhere', 'busy', 'busy'],
    [603, 'Decline', 'busy', 'declined'],
    [480, 'Temporarily Unavailable', 'no-answer', 'no_answer'],
    [404, 'Not Found', 'failed', 'sip_404'],
    [503, 'Service Unavailable', 'failed', 'sip_503'],
  ])('a final %i %s from SIPp ends the leg %s / %s, and SIPp gets its ACK', async (status, reason, outcome, endReason) => {
    sipp = await startSipp('reject.xml', await freeUdpPort(), [], ['SIP/2.0 486 Busy Here', `SIP/2.0 ${status} ${reason}`]);
    trunk = await trunkTo(sipp.port);
    const leg = await trunk.originate({ to: '+15550101' });
    await expect(leg.ended).resolves.toEqual({ outcome, endReason, sipStatus: status });
    expect(await sipp.exited).toBe(0);
  });

  it('a phone that rings past our ring timeout is cancelled and ends no-answer after its 487', async () => {
    sipp = await startSipp('ring-forever.xml', await freeUdpPort());
    trunk = await trunkTo(sipp.port);
    const leg = await trunk.originate({ to: '+15550102', ringTimeoutMs: 1500 });
    const events: string[] = [];
    leg.on('ringing', () => events.push('ringing'));
    await expect(leg.ended).resolves.toEqual({ outcome: 'no-answer', endReason: 'no_answer', sipStatus: 487 });
    expect(events).toContain('ringing');
    expect(await sipp.exited).toBe(0);
  });

  it('a hangup while ringing sends CANCEL and ends the leg canceled with the given reason', async () => {
    sipp = await startSipp('ring-forever.xml', await freeUdpPort());
    trunk = await trunkTo(sipp.port);
    const leg = await trunk.originate({ to: '+15550103', ringTimeoutMs: 60_000 });
    await new Promise<void>((resolve) => leg.once('ringing', resolve));
    await expect(leg.hangup('hangup_api')).resolves.toEqual({ outcome: 'canceled', endReason: 'hangup_api', sipStatus: 487 });
    expect(leg.state).toBe('ended');
    expect(await sipp.exited).toBe(0);
  });

  it('answers a 401 challenge with digest credentials that SIPp verifies, then the call is answered', async () => {
    sipp = await startSipp('auth-then-answer.xml', await freeUdpPort(), ['-mi', '127.0.0.1', '-mp', String(await freeUdpPort())]);
    trunk = await trunkTo(sipp.port, { username: 'alice', password: 's3cret' });
    const leg = await trunk.originate({ to: '+15550104' });
    await new Promise<void>((resolve) => leg.once('answered', resolve));
    await expect(leg.hangup()).resolves.toEqual({ outcome: 'completed', endReason: 'hangup_api' });
    expect(await sipp.exited).toBe(0);
  });

  it('a wrong digest password is refused by SIPp with 403 and the leg fails with sip_403', async () => {
    sipp = await startSipp('auth-then-answer.xml', await freeUdpPort());
    trunk = await trunkTo(sipp.port, { username: 'alice', password: 'wrong' });
    const leg = await trunk.originate({ to: '+15550105' });
    await expect(leg.ended).resolves.toEqual({ outcome: 'failed', endReason: 'sip_403', sipStatus: 403 });
    await sipp.stop();
  });

  it('a 401 without credentials configured fails the leg with sip_401', async () => {
    sipp = await startSipp('auth-then-answer.xml', await freeUdpPort());
    trunk = await trunkTo(sipp.port);
    const leg = await trunk.originate({ to: '+15550106' });
    await expect(leg.ended).resolves.toEqual({ outcome: 'failed', endReason: 'sip_401', sipStatus: 401 });
  });

  it('answers the callee’s BYE with 200 and ends the leg completed / callee_hangup', async () => {
    sipp = await startSipp('answer-then-bye.xml', await freeUdpPort(), ['-mi', '127.0.0.1', '-mp', String(await freeUdpPort())]);
    trunk = await trunkTo(sipp.port);
    const leg = await trunk.originate({ to: '+15550107' });
    await expect(leg.ended).resolves.toEqual({ outcome: 'completed', endReason: 'callee_hangup' });
    expect(await sipp.exited).toBe(0);
  });
});
