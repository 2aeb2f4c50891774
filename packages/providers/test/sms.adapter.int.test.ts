import type { PDU } from 'smpp';
import type { UpstreamInbound, UpstreamReceipt } from '@switchboard/domain';
import { ProviderError } from '../src/provider-error';
import type { OutboundMessage, SmsAdapter } from '../src/provider.types';
import { createSmsAdapter, SmsAdapterConfig } from '../src/sms/sms.adapter';
import { FakeSmsc, startFakeSmsc } from './support/fake-smsc';

const USER_MESSAGE_REFERENCE = 0x0204;

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** The SMSC has seen the bind before the ESME has read bind_resp; retry the short gap in between. */
async function sendOnceBound(sms: SmsAdapter, m: OutboundMessage) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await sms.send(m);
    } catch (error) {
      if (!(error instanceof ProviderError) || error.upstreamCode !== 'not_bound' || attempt > 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

describe('sms adapter against a local SMSC', () => {
  let smsc: FakeSmsc;
  let adapter: SmsAdapter;
  const message: OutboundMessage = {
    clientRef: 'msg_01SMS',
    attemptRef: 0x1234,
    to: '+15550001100',
    from: '+15550009000',
    content: { kind: 'text', text: 'Hello €' },
  };

  async function connect(overrides: Partial<SmsAdapterConfig> = {}): Promise<SmsAdapter> {
    adapter = createSmsAdapter({
      config: {
        host: '127.0.0.1',
        port: smsc.port,
        systemId: 'esme',
        password: 'secret',
        reconnectBaseMs: 20,
        reconnectMaxMs: 100,
        submitTimeoutMs: 1000,
        ...overrides,
      },
    });
    await adapter.ready();
    return adapter;
  }

  beforeEach(async () => {
    smsc = await startFakeSmsc();
  });
  afterEach(async () => {
    await adapter?.close();
    await smsc.close();
  });

  it('binds as a transceiver with the configured credentials', async () => {
    await connect();
    expect(smsc.binds).toHaveLength(1);
    expect(smsc.binds[0]).toMatchObject({ command: 'bind_transceiver', system_id: 'esme', password: 'secret', interface_version: 0x34 });
  });

  it('submits a GSM-7 text with addresses, registered_delivery and user_message_reference', async () => {
    await connect();
    await expect(adapter.send(message)).resolves.toEqual({ upstreamMessageId: 'smsc-1', parts: 1, partIds: ['smsc-1'] });
    const { bytes } = smsc.submits[0];
    expect(bytes).toMatchObject({
      sourceTon: 1,
      sourceNpi: 1,
      source: '15550009000',
      destTon: 1,
      destNpi: 1,
      destination: '15550001100',
      esmClass: 0,
      registeredDelivery: 1,
      dataCoding: 0,
    });
    expect([...bytes.shortMessage]).toEqual([0x48, 0x65, 0x6c, 0x6c, 0x6f, 0x20, 0x1b, 0x65]);
    expect(bytes.tlvs.get(USER_MESSAGE_REFERENCE)?.readUInt16BE(0)).toBe(0x1234);
  });

  it('submits UCS-2 text with data_coding 8', async () => {
    await connect();
    await adapter.send({ ...message, content: { kind: 'text', text: 'Привет 😀' } });
    const { bytes } = smsc.submits[0];
    expect(bytes.dataCoding).toBe(8);
    expect(bytes.shortMessage.equals(Buffer.from('Привет 😀', 'utf16le').swap16())).toBe(true);
  });

  it('splits a 200-character text into two submit_sm with one concatenation reference', async () => {
    await connect();
    const text = 'x'.repeat(200);
    await expect(adapter.send({ ...message, content: { kind: 'text', text } })).resolves.toEqual({
      upstreamMessageId: 'smsc-1',
      parts: 2,
      partIds: ['smsc-1', 'smsc-2'],
    });
    expect(smsc.submits).toHaveLength(2);
    const [first, second] = smsc.submits.map((s) => s.bytes);
    for (const [index, part] of [first, second].entries()) {
      expect(part.esmClass & 0x40).toBe(0x40);
      expect(part.registeredDelivery).toBe(1);
      expect(part.tlvs.get(USER_MESSAGE_REFERENCE)?.readUInt16BE(0)).toBe(0x1234);
      expect([...part.shortMessage.subarray(0, 3)]).toEqual([0x05, 0x00, 0x03]);
      expect(part.shortMessage[4]).toBe(2);
      expect(part.shortMessage[5]).toBe(index + 1);
    }
    expect(first.shortMessage[3]).toBe(second.shortMessage[3]);
    expect(first.shortMessage.length - 6 + second.shortMessage.length - 6).toBe(200);
    expect(first.shortMessage.length - 6).toBe(153);
  });

  it('maps ESME_RTHROTTLED (0x58) to throttled and ESME_RINVDSTADR to permanent', async () => {
    await connect();
    smsc.answerSubmit = () => ({ command_status: 0x58 });
    const throttled = await adapter.send(message).catch((e: unknown) => e);
    expect(throttled).toBeInstanceOf(ProviderError);
    expect(throttled).toMatchObject({ kind: 'throttled', upstreamCode: '0x58' });
    smsc.answerSubmit = () => ({ command_status: 0x0b });
    await expect(adapter.send(message)).rejects.toMatchObject({ kind: 'permanent', upstreamCode: '0x0B' });
    smsc.answerSubmit = () => ({ command_status: 0x14 });
    await expect(adapter.send(message)).rejects.toMatchObject({ kind: 'transient', upstreamCode: '0x14' });
  });

  it('keeps at most windowSize submits outstanding and sends the rest in order', async () => {
    await connect({ windowSize: 2 });
    smsc.answerSubmit = () => undefined;
    const sends = [1, 2, 3, 4, 5].map((n) => adapter.send({ ...message, content: { kind: 'text', text: `m${n}` } }));
    await smsc.waitFor(() => smsc.submits.length === 2);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(smsc.submits).toHaveLength(2);
    smsc.submits[0].respond({ message_id: 'a' });
    await smsc.waitFor(() => smsc.submits.length === 3);
    smsc.answerSubmit = (_submit, index) => ({ message_id: `id-${index}` });
    smsc.submits.slice(1).forEach((submit, i) => submit.respond({ message_id: `id-${i + 1}` }));
    const results = await Promise.all(sends);
    expect(results.map((r) => r.upstreamMessageId)).toEqual(['a', 'id-1', 'id-2', 'id-3', 'id-4']);
    expect(smsc.submits.map((s) => s.bytes.shortMessage.toString('latin1'))).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
  });

  it('fails a submit that gets no response in time as transient', async () => {
    await connect({ submitTimeoutMs: 150 });
    smsc.answerSubmit = () => undefined;
    await expect(adapter.send(message)).rejects.toMatchObject({ kind: 'transient', upstreamCode: 'submit_timeout' });
  });

  it('answers a receipt deliver_sm only after the receipt handler resolved', async () => {
    await connect();
    await adapter.send({ ...message, content: { kind: 'text', text: 'y'.repeat(200) } });
    const handled = deferred();
    const receipts: UpstreamReceipt[] = [];
    adapter.onReceipt(async (receipt) => {
      receipts.push(receipt);
      await handled.promise;
    });
    let response: PDU | undefined;
    const answered = smsc
      .request('deliver_sm', {
        source_addr_ton: 1,
        source_addr_npi: 1,
        source_addr: '15550001100',
        destination_addr: '15550009000',
        esm_class: 0x04,
        short_message: 'id:smsc-2 sub:001 dlvrd:001 submit date:2501011200 done date:2501011201 stat:DELIVRD err:000 text:yyyy',
        receipted_message_id: 'smsc-2',
        message_state: 2,
        user_message_reference: 0x1234,
      })
      .then((pdu) => (response = pdu));
    await smsc.waitFor(() => receipts.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(response).toBeUndefined();
    handled.resolve();
    await answered;
    expect(response).toMatchObject({ command: 'deliver_sm_resp', command_status: 0 });
    expect(receipts[0]).toMatchObject({
      channel: 'sms',
      upstreamMessageId: 'smsc-1',
      attemptRef: 0x1234,
      recipient: '+15550001100',
      status: 'delivered',
      carrierStatusCode: 'DELIVRD:000',
    });
  });

  it('asks the SMSC to redeliver when the receipt handler fails', async () => {
    await connect();
    adapter.onReceipt(async () => {
      throw new Error('queue down');
    });
    const response = await smsc.request('deliver_sm', { source_addr: '15550001100', esm_class: 0x04, short_message: 'id:x stat:UNDELIV err:001' });
    expect(response.command_status).toBe(0x64);
  });

  it('hands mobile-originated texts to the inbound handler', async () => {
    await connect();
    const inbound: UpstreamInbound[] = [];
    adapter.onInbound(async (item) => {
      inbound.push(item);
    });
    const response = await smsc.request('deliver_sm', {
      source_addr: '15550001100',
      destination_addr: '15550009000',
      esm_class: 0,
      data_coding: 0,
      short_message: Buffer.from('YES'),
    });
    expect(response.command_status).toBe(0);
    expect(inbound).toEqual([
      {
        channel: 'sms',
        upstreamId: expect.stringMatching(/^smpp-mo-/),
        from: '+15550001100',
        to: '+15550009000',
        type: 'text',
        text: 'YES',
        receivedAt: expect.any(String),
      },
    ]);
  });

  it('answers the SMSC enquire_link and sends its own', async () => {
    await connect({ enquireLinkMs: 50 });
    await smsc.waitFor(() => smsc.enquireLinks >= 2);
    const response = await smsc.request('enquire_link', {});
    expect(response.command).toBe('enquire_link_resp');
  });

  it('reconnects and rebinds after the SMSC drops the connection', async () => {
    await connect();
    smsc.answerSubmit = () => undefined;
    const inFlight = adapter.send(message).catch((e: unknown) => e);
    await smsc.waitFor(() => smsc.submits.length === 1);
    smsc.dropConnections();
    expect(await inFlight).toMatchObject({ kind: 'transient', upstreamCode: 'connection_lost' });
    await smsc.waitFor(() => smsc.binds.length === 2);
    smsc.answerSubmit = () => ({ message_id: 'after-reconnect' });
    await expect(sendOnceBound(adapter, message)).resolves.toMatchObject({ upstreamMessageId: 'after-reconnect' });
  });

  it('refuses to send while not bound', async () => {
    await connect({ reconnectBaseMs: 5000, reconnectMaxMs: 5000 });
    smsc.dropConnections();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await expect(adapter.send(message)).rejects.toMatchObject({ kind: 'transient', upstreamCode: 'not_bound' });
  });

  it('unbinds on close', async () => {
    await connect();
    await adapter.close();
    expect(smsc.unbinds).toBe(1);
  });

  it('refuses chat-only content', async () => {
    await connect();
    await expect(adapter.send({ ...message, content: { kind: 'chat', type: 'interactive', payload: {} } })).rejects.toMatchObject({
      kind: 'permanent',
      upstreamCode: 'content_not_supported_on_channel',
    });
  });
});
