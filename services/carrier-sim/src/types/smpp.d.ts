// The `smpp` package ships no types; this declares the part of its API the simulator and its tests use.
declare module 'smpp' {
  import { EventEmitter } from 'events';
  import { Server as NetServer, Socket } from 'net';

  /** A decoded short_message / message_payload: the text plus any UDH information elements. */
  export interface DecodedMessage {
    message: string | Buffer;
    udh?: Buffer[];
  }

  export type PduOptions = Record<string, unknown>;

  export class PDU {
    constructor(command: string, options?: PduOptions);
    command: string;
    command_id: number;
    command_status: number;
    sequence_number: number;
    [field: string]: unknown;
    isResponse(): boolean;
    response(options?: PduOptions): PDU;
    toBuffer(): Buffer;
  }

  export type PduCallback = (pdu: PDU) => void;
  type Shortcut = (options?: PduOptions, responseCallback?: PduCallback, sendCallback?: PduCallback) => boolean;

  export class Session extends EventEmitter {
    socket: Socket;
    send(pdu: PDU, responseCallback?: PduCallback, sendCallback?: PduCallback): boolean;
    pause(): void;
    resume(): void;
    close(callback?: () => void): void;
    destroy(callback?: () => void): void;
    bind_transceiver: Shortcut;
    bind_transmitter: Shortcut;
    bind_receiver: Shortcut;
    submit_sm: Shortcut;
    deliver_sm: Shortcut;
    enquire_link: Shortcut;
    unbind: Shortcut;
  }

  export class Server extends NetServer {
    sessions: Session[];
  }

  export interface ConnectOptions {
    url?: string;
    host?: string;
    port?: number;
    auto_enquire_link_period?: number;
  }

  export function createServer(listener?: (session: Session) => void): Server;
  export function createServer(options: Record<string, unknown>, listener?: (session: Session) => void): Server;
  export function connect(options: ConnectOptions | string, listener?: () => void): Session;

  export interface Encoding {
    match(value: string): boolean;
    encode(value: string): Buffer;
    decode(value: Buffer): string;
  }
  export const encodings: { ASCII: Encoding; LATIN1: Encoding; UCS2: Encoding; default: string };

  export const ESME_ROK: number;
  export const ESME_RINVMSGLEN: number;
  export const ESME_RINVCMDID: number;
  export const ESME_RINVBNDSTS: number;
  export const ESME_RALYBND: number;
  export const ESME_RSYSERR: number;
  export const ESME_RINVDSTADR: number;
  export const ESME_RINVEXPIRY: number;
  export const ESME_RBINDFAIL: number;
  export const ESME_RMSGQFUL: number;
  export const ESME_RSUBMITFAIL: number;
  export const ESME_RTHROTTLED: number;

  export const ESM_CLASS: {
    MC_DELIVERY_RECEIPT: number;
    UDH_INDICATOR: number;
  };
  export const MESSAGE_STATE: {
    ENROUTE: number;
    DELIVERED: number;
    EXPIRED: number;
    UNDELIVERABLE: number;
    REJECTED: number;
  };
}
