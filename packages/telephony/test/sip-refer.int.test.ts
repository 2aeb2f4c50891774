import { createSipTrunk, type SipTrunk } from '../src';
import { freeUdpPort } from './support/free-port';
import { startSipp, type SippProcess } from './support/sipp.process';

// REFER against a third-party SIP peer (SIPp as the transferee), through the leg API (docs/voice-agents.md#transfer).
// SIPp checks our REFER's Refer-To and Referred-By itself (`check_it`), and exits 1 if any message is not as scripted.
jest.setTimeout(30_000);

describe('SIP trunk against SIPp: blind transfer by REFER', () => {
  let sipp: SippProcess | undefined;
  let trunk: SipTrunk | undefined;

  afterEach(async () => {
    await trunk?.close();
    await sipp?.stop();
    trunk = undefined;
    sipp = undefined;
  });

  const answeredLeg = async (scenario: string) => {
    sipp = await startSipp(scenario, await freeUdpPort(), ['-mi', '127.0.0.1', '-mp', String(await freeUdpPort())]);
    trunk = await createSipTrunk({ host: '127.0.0.1', port: sipp.port, callerId: '+15550001', bindAddress: '127.0.0.2', localPort: 0 });
    const leg = await trunk.originate({ to: '+15550110' });
    await new Promise<void>((resolve) => leg.once('answered', resolve));
    return leg;
  };

  it('a REFER answered 202 and a NOTIFY with sipfrag "SIP/2.0 200 OK" is an accepted transfer; our BYE follows', async () => {
    const leg = await answeredLeg('refer-accept.xml');
    await expect(leg.transfer('+15550199')).resolves.toEqual({
      accepted: true,
      referStatus: 202,
      notifyStatus: 200,
      referTo: `sip:+15550199@127.0.0.1:${sipp!.port}`,
    });
    await expect(leg.hangup('completed')).resolves.toEqual({ outcome: 'completed', endReason: 'completed' });
    expect(await sipp!.exited).toBe(0);
  });

  it('a REFER declined with 603 is a failed transfer that leaves the call up', async () => {
    const leg = await answeredLeg('refer-decline.xml');
    await expect(leg.transfer('+15550199')).resolves.toEqual({ accepted: false, referStatus: 603, referTo: `sip:+15550199@127.0.0.1:${sipp!.port}` });
    expect(leg.state).toBe('answered');
    await expect(leg.hangup('agent_hangup')).resolves.toEqual({ outcome: 'completed', endReason: 'agent_hangup' });
    expect(await sipp!.exited).toBe(0);
  });
});
