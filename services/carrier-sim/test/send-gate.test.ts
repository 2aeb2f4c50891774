import { createSendGate } from '../src/support/send-gate';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('send gate', () => {
  it('runs sends at once under the maximum, holds them past it, and releases them in order once under it again', async () => {
    let backlog = 0;
    const ran: number[] = [];
    const gate = createSendGate({ backlog: () => backlog, maxBacklog: () => 10 });
    gate.admit(() => void ran.push(1));
    expect(ran).toEqual([1]);
    backlog = 10;
    gate.admit(() => void ran.push(2));
    backlog = 0; // Once one send waits, later ones queue behind it, whatever the backlog: order is kept.
    gate.admit(() => void ran.push(3));
    expect(ran).toEqual([1]);
    expect(gate.waiting()).toBe(2);
    backlog = 10;
    await sleep(30);
    expect(ran).toEqual([1]);
    backlog = 9;
    await sleep(30);
    expect(ran).toEqual([1, 2, 3]);
    expect(gate.waiting()).toBe(0);
    gate.stop();
  });

  it('drops held sends when stopped', async () => {
    const ran: number[] = [];
    const gate = createSendGate({ backlog: () => 100, maxBacklog: () => 10 });
    gate.admit(() => void ran.push(1));
    gate.stop();
    await sleep(20);
    expect(ran).toEqual([]);
  });
});
