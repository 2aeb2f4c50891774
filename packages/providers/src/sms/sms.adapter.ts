import { randomInt, randomUUID } from 'node:crypto';
import * as smpp from 'smpp';
import { splitSmsIntoParts as splitWithDomainRules } from '@switchboard/domain';
import type { UpstreamInbound, UpstreamReceipt } from '@switchboard/domain';
import type { Logger } from '@switchboard/logger';
import { ProviderError } from '../provider-error';
import type { OutboundMessage, SendAccepted, SmsAdapter, SplitSmsIntoParts } from '../provider.types';
import { silentLogger } from '../silent.logger';
import { readDeliverSm } from './deliver-sm.reader';
import { createMoConcatenationBuffer } from './mo-concatenation.buffer';
import { createPartIdRegistry, type PartIdRegistry } from './part-id.registry';
import { createSmppBindsAdapter } from './smpp-binds.adapter';
import { encodeShortMessageParts } from './short-message.encoder';
import { createSmppLink } from './smpp-link.connection';
import { ESME_RX_T_APPN, linkFailure, mapSubmitStatus } from './smpp-status.mapper';
import { createSubmitWindow, SubmitGroup } from './submit-window.queue';
import { relativeValidityPeriod } from './validity-period.format';

export interface SmsAdapterConfig {
  host: string;
  port: number;
  systemId: string;
  password: string;
  /** Most submit_sm awaiting a response at once, per bind. @defaultValue 10 */
  windowSize?: number;
  /** Transceiver binds opened to the SMSC, sends spread over them in turn (smpp-binds.adapter.ts). @defaultValue 1 */
  binds?: number;
  /** @defaultValue 30000 */
  enquireLinkMs?: number;
  /** First reconnect delay after a drop, doubled per failed attempt. @defaultValue 1000 */
  reconnectBaseMs?: number;
  /** @defaultValue 60000 */
  reconnectMaxMs?: number;
  /** Queue wait plus submit_sm_resp wait; also bounds bind and unbind. @defaultValue 10000 */
  submitTimeoutMs?: number;
  /** How long part ids of multipart messages stay mapped to the first part's id. @defaultValue 72 h */
  partIdRetentionMs?: number;
  /** How long the parts of a concatenated inbound text wait for the rest. @defaultValue 300000 */
  moReassemblyTimeoutMs?: number;
}

/** SMPP TON/NPI for international E.164 numbers (SMPP v3.4 §5.2.5, §5.2.6). */
const TON_INTERNATIONAL = 1;
const NPI_E164 = 1;

function digitsOf(e164: string): string {
  return e164.replace(/^\+/, '');
}

/**
 * SMS over one SMPP v3.4 transceiver bind. The bind starts when the adapter is created;
 * `ready()` waits for it.
 *
 * Multipart messages: every part is a submit_sm sharing one concatenation reference.
 * `upstreamMessageId` is the first part's SMSC id and `partIds` lists all of them; receipts
 * for later parts are reported under the first part's id while this process remembers the
 * mapping (`partIdRetentionMs`). SMPP has no idempotency: if a later part fails, the retry
 * resends every part, so a handset may see an earlier part twice.
 */
export function createSmsAdapter(deps: { config: SmsAdapterConfig; logger?: Logger; splitSmsIntoParts?: SplitSmsIntoParts }): SmsAdapter {
  if ((deps.config.binds ?? 1) <= 1) return createSmppBind(deps);
  // Every bind reports receipts for any part: one registry maps part ids whichever bind sent them.
  const partIds = createPartIdRegistry({ retentionMs: deps.config.partIdRetentionMs ?? 72 * 3_600_000, maxEntries: 100_000 });
  return createSmppBindsAdapter(Array.from({ length: deps.config.binds ?? 1 }, () => createSmppBind({ ...deps, partIds })));
}

/** One transceiver bind; `partIds` is shared when several binds of one SMSC work together. */
export function createSmppBind(deps: {
  config: SmsAdapterConfig;
  logger?: Logger;
  splitSmsIntoParts?: SplitSmsIntoParts;
  partIds?: PartIdRegistry;
}): SmsAdapter & { isBound(): boolean } {
  const { config } = deps;
  const logger = deps.logger ?? silentLogger;
  // The same splitter prices the message at the gateway, so cost_units always equals the parts sent.
  const split = deps.splitSmsIntoParts ?? splitWithDomainRules;
  const submitTimeoutMs = config.submitTimeoutMs ?? 10_000;
  let receiptHandler: ((r: UpstreamReceipt) => Promise<void>) | undefined;
  let inboundHandler: ((i: UpstreamInbound) => Promise<void>) | undefined;
  // A random start keeps a restarted process from reusing the reference a handset is still assembling.
  let concatReference = randomInt(256);
  let closed = false;

  const partIds = deps.partIds ?? createPartIdRegistry({ retentionMs: config.partIdRetentionMs ?? 72 * 3_600_000, maxEntries: 100_000 });
  const moBuffer = createMoConcatenationBuffer({
    timeoutMs: config.moReassemblyTimeoutMs ?? 300_000,
    onDropped: (key, received, total) => logger.warn('sms inbound parts dropped incomplete', { key, received, total }),
  });

  let markReady: () => void = () => undefined;
  let failReady: (error: Error) => void = () => undefined;
  const readyPromise = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    failReady = reject;
  });
  // Nobody has to call ready(); an unobserved rejection at close must not crash the process.
  readyPromise.catch(() => undefined);

  const link = createSmppLink(
    {
      host: config.host,
      port: config.port,
      systemId: config.systemId,
      password: config.password,
      enquireLinkMs: config.enquireLinkMs ?? 30_000,
      reconnectBaseMs: config.reconnectBaseMs ?? 1_000,
      reconnectMaxMs: config.reconnectMaxMs ?? 60_000,
      bindTimeoutMs: submitTimeoutMs,
    },
    {
      onBound: () => {
        markReady();
        submitWindow.pump();
      },
      onUnbound: () => submitWindow.failInFlight(linkFailure('connection_lost', 'SMPP connection lost before submit_sm_resp')),
      onRequest: (pdu, reply) => {
        handleRequest(pdu, reply).catch((error: unknown) => logger.error('smpp request handling failed', { command: pdu.command, error: String(error) }));
      },
    },
    logger,
  );

  const submitWindow = createSubmitWindow({
    windowSize: config.windowSize ?? 10,
    timeoutMs: submitTimeoutMs,
    transmit: (pdu, onResponse) => link.send(pdu, onResponse),
    isBound: () => link.isBound(),
    refusalOf: (response) => (response.command_status === 0 ? undefined : mapSubmitStatus(response.command_status)),
  });

  /** Acknowledges only after the handler resolved, so anything not yet queued is redelivered by the SMSC. */
  async function handOff<T>(pdu: smpp.PDU, reply: (r: smpp.PDU) => boolean, handler: ((item: T) => Promise<void>) | undefined, item: T): Promise<boolean> {
    if (!handler) {
      reply(pdu.response({ command_status: ESME_RX_T_APPN }));
      return false;
    }
    try {
      await handler(item);
      reply(pdu.response());
      return true;
    } catch (error) {
      logger.error('sms deliver_sm handler failed, asking the SMSC to redeliver', { error: error instanceof Error ? error.message : String(error) });
      reply(pdu.response({ command_status: ESME_RX_T_APPN }));
      return false;
    }
  }

  async function handleRequest(pdu: smpp.PDU, reply: (r: smpp.PDU) => boolean): Promise<void> {
    if (pdu.command !== 'deliver_sm') {
      logger.warn('smpp request not supported', { command: pdu.command });
      // alert_notification and outbind have no response PDU; node-smpp throws when asked for one.
      try {
        reply(pdu.response({ command_status: 0x03 }));
      } catch {
        return;
      }
      return;
    }
    const content = readDeliverSm(pdu, new Date().toISOString(), partIds.firstIdOf, partIds.partsOf);
    if (content.kind === 'unreadable') {
      // Refusing it would only make the SMSC redeliver the same unreadable PDU forever.
      logger.warn('sms deliver_sm unreadable, acknowledged and skipped', { reason: content.reason });
      reply(pdu.response());
      return;
    }
    if (content.kind === 'receipt') {
      await handOff(pdu, reply, receiptHandler, content.receipt);
      return;
    }
    const completed = moBuffer.add(content.piece);
    if (!completed) {
      // Earlier parts are acknowledged at once: SMSCs often keep one deliver_sm in flight, so holding them would stall the rest.
      reply(pdu.response());
      return;
    }
    const { piece } = content;
    const inbound: UpstreamInbound = {
      channel: 'sms',
      // SMPP gives mobile-originated messages no id of their own unless the SMSC adds one.
      upstreamId: piece.smscId ?? `smpp-mo-${randomUUID()}`,
      from: piece.source,
      to: piece.destination,
      type: 'text',
      text: completed.text,
      receivedAt: new Date().toISOString(),
    };
    if (await handOff(pdu, reply, inboundHandler, inbound)) completed.done();
  }

  function encodeParts(text: string, reference: number) {
    try {
      return encodeShortMessageParts(split(text), reference);
    } catch (error) {
      // Only reachable when an injected splitter disagrees with the GSM-7 table; resending cannot fix it.
      throw new ProviderError('permanent', 'unencodable_text', error instanceof Error ? error.message : String(error));
    }
  }

  async function send(message: OutboundMessage): Promise<SendAccepted> {
    if (message.content.kind !== 'text') {
      throw new ProviderError('permanent', 'content_not_supported_on_channel', `sms cannot carry chat content "${message.content.type}"`);
    }
    if (closed) throw linkFailure('closed', 'the SMS adapter is closed');
    concatReference = (concatReference + 1) & 0xff;
    const parts = encodeParts(message.content.text, concatReference);
    const group: SubmitGroup = {};
    const submits = parts.map((part) =>
      submitWindow.submit(
        new smpp.PDU('submit_sm', {
          source_addr_ton: TON_INTERNATIONAL,
          source_addr_npi: NPI_E164,
          source_addr: digitsOf(message.from),
          dest_addr_ton: TON_INTERNATIONAL,
          dest_addr_npi: NPI_E164,
          destination_addr: digitsOf(message.to),
          esm_class: part.esmClass,
          registered_delivery: 1,
          data_coding: part.dataCoding,
          short_message: part.shortMessage,
          ...(message.attemptRef === undefined ? {} : { user_message_reference: message.attemptRef & 0xffff }),
          ...(message.validitySeconds === undefined ? {} : { validity_period: relativeValidityPeriod(message.validitySeconds) }),
        }),
        group,
      ),
    );
    const results = await Promise.allSettled(submits);
    const refused = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (refused) {
      const error = refused.reason instanceof ProviderError ? refused.reason : linkFailure('connection_lost', String(refused.reason));
      logger.warn('sms submit refused', { message_id: message.clientRef, kind: error.kind, upstream_code: error.upstreamCode, parts: parts.length });
      throw error;
    }
    const ids = results.map((result) => {
      // node-smpp decodes message_id, a C-octet string, as a string.
      const id = (result as PromiseFulfilledResult<smpp.PDU>).value.message_id;
      return typeof id === 'string' ? id : '';
    });
    partIds.remember(ids);
    return { upstreamMessageId: ids[0], parts: ids.length, partIds: ids };
  }

  async function close(): Promise<void> {
    if (closed) return;
    closed = true;
    failReady(new Error('the SMS adapter was closed before it bound'));
    submitWindow.failAll(linkFailure('closed', 'the SMS adapter was closed'));
    moBuffer.clear();
    await link.close();
  }

  link.start();

  return {
    send,
    onReceipt: (handler) => {
      receiptHandler = handler;
    },
    onInbound: (handler) => {
      inboundHandler = handler;
    },
    ready: () => readyPromise,
    close,
    isBound: () => link.isBound(),
  };
}
