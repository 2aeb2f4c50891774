import * as smpp from 'smpp';
import type { Logger } from '@switchboard/logger';

export interface SmppLinkConfig {
  host: string;
  port: number;
  systemId: string;
  password: string;
  enquireLinkMs: number;
  reconnectBaseMs: number;
  reconnectMaxMs: number;
  /** How long connect + bind_transceiver, and the unbind at close, may take. */
  bindTimeoutMs: number;
}

export interface SmppLinkHandlers {
  onBound(): void;
  onUnbound(): void;
  /** A request PDU from the SMSC that the link does not answer itself (deliver_sm, data_sm, …). */
  onRequest(pdu: smpp.PDU, reply: (response: smpp.PDU) => boolean): void;
}

export interface SmppLink {
  start(): void;
  isBound(): boolean;
  /** Sends a request on the bound session; false when there is none or it is not writable. */
  send(pdu: smpp.PDU, onResponse: (response: smpp.PDU) => void): boolean;
  close(): Promise<void>;
}

/** SMPP v3.4 interface_version. */
const INTERFACE_VERSION_34 = 0x34;

/**
 * One ESME transceiver bind that stays up: binds on connect, sends enquire_link on a timer
 * (a second unanswered one means a dead peer, so the socket is dropped), answers the SMSC's
 * enquire_link and unbind, and reconnects with capped exponential backoff after any drop.
 */
export function createSmppLink(config: SmppLinkConfig, handlers: SmppLinkHandlers, logger: Logger): SmppLink {
  let session: smpp.Session | undefined;
  let bound = false;
  let closing = false;
  let failures = 0;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let enquireTimer: NodeJS.Timeout | undefined;
  let bindTimer: NodeJS.Timeout | undefined;

  function clearTimers(): void {
    clearInterval(enquireTimer);
    clearTimeout(bindTimer);
    enquireTimer = undefined;
    bindTimer = undefined;
  }

  function backoffMs(): number {
    const ceiling = Math.min(config.reconnectMaxMs, config.reconnectBaseMs * 2 ** Math.min(failures, 30));
    // Equal jitter: several dispatchers dropped by one SMSC restart do not all rebind at once.
    return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
  }

  function scheduleReconnect(): void {
    if (closing || reconnectTimer) return;
    const delay = backoffMs();
    failures += 1;
    logger.info('smpp reconnect scheduled', { delay_ms: delay, attempt: failures });
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined;
      connect();
    }, delay);
  }

  function startEnquireLink(current: smpp.Session): void {
    let awaiting = false;
    enquireTimer = setInterval(() => {
      if (awaiting) {
        logger.warn('smpp enquire_link unanswered, dropping the connection');
        current.destroy();
        return;
      }
      awaiting = true;
      current.send(new smpp.PDU('enquire_link'), () => {
        awaiting = false;
      });
    }, config.enquireLinkMs);
  }

  function bind(current: smpp.Session): void {
    const request = new smpp.PDU('bind_transceiver', {
      system_id: config.systemId,
      password: config.password,
      interface_version: INTERFACE_VERSION_34,
    });
    current.send(request, (response) => {
      if (current !== session) return;
      clearTimeout(bindTimer);
      if (response.command_status !== 0) {
        logger.error('smpp bind refused', { command_status: response.command_status, system_id: config.systemId });
        current.destroy();
        return;
      }
      bound = true;
      failures = 0;
      logger.info('smpp bound', { host: config.host, port: config.port, system_id: config.systemId });
      startEnquireLink(current);
      handlers.onBound();
    });
  }

  function attach(current: smpp.Session): void {
    current.on('connect', () => bind(current));
    current.on('error', (error: Error) => {
      logger.warn('smpp connection error', { error: error.message });
      // node-smpp stops reading a session after a PDU it cannot parse; start over on a fresh one.
      current.destroy();
    });
    current.on('close', () => {
      if (current !== session) return;
      const wasBound = bound;
      bound = false;
      session = undefined;
      clearTimers();
      if (wasBound) {
        logger.warn('smpp connection lost');
        handlers.onUnbound();
      }
      scheduleReconnect();
    });
    current.on('enquire_link', (pdu: smpp.PDU) => current.send(pdu.response()));
    current.on('unbind', (pdu: smpp.PDU) => {
      logger.info('smpp unbind requested by the SMSC');
      current.send(pdu.response(), () => current.close());
    });
    current.on('unknown', (pdu: smpp.PDU) => current.send(pdu.response()));
    current.on('pdu', (pdu: smpp.PDU) => {
      if (pdu.isResponse() || ['enquire_link', 'unbind', 'unknown'].includes(pdu.command)) return;
      handlers.onRequest(pdu, (response) => current === session && current.send(response));
    });
  }

  function connect(): void {
    if (closing) return;
    const current = smpp.connect({ host: config.host, port: config.port });
    session = current;
    attach(current);
    bindTimer = setTimeout(() => {
      if (current === session && !bound) {
        logger.warn('smpp bind timed out');
        current.destroy();
      }
    }, config.bindTimeoutMs);
  }

  function close(): Promise<void> {
    closing = true;
    clearTimeout(reconnectTimer);
    reconnectTimer = undefined;
    const current = session;
    if (!current) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const force = setTimeout(() => current.destroy(), config.bindTimeoutMs);
      current.socket.once('close', () => {
        clearTimeout(force);
        resolve();
      });
      if (current.socket.destroyed) {
        clearTimeout(force);
        resolve();
        return;
      }
      const unbound = bound && current.send(new smpp.PDU('unbind'), () => current.close());
      if (!unbound) current.destroy();
    });
  }

  return {
    start: connect,
    isBound: () => bound,
    send: (pdu, onResponse) => (bound && session ? session.send(pdu, onResponse) : false),
    close,
  };
}
