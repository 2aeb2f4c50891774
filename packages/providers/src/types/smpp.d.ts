/**
 * The part of the untyped `smpp` package (node-smpp 0.5) this package uses.
 * https://github.com/farhadi/node-smpp
 */
declare module 'smpp' {
  import { EventEmitter } from 'node:events';
  import { Server as NetServer, Socket } from 'node:net';

  /** A request or response PDU; its fields are the SMPP parameter and TLV names. */
  export class PDU {
    /** A command name and its parameters, or the raw bytes of a whole PDU to decode. */
    constructor(command: string | Buffer, options?: Record<string, unknown>);
    command: string;
    command_id: number;
    command_status: number;
    sequence_number: number;
    isResponse(): boolean;
    /** Builds the response to this request (generic_nack for an unknown command). */
    response(options?: Record<string, unknown>): PDU;
    toBuffer(): Buffer;
    [field: string]: unknown;
  }

  export class Session extends EventEmitter {
    socket: Socket;
    server?: Server;
    /** Returns false (and sends nothing) when the socket is not writable. */
    send(pdu: PDU, responseCallback?: (response: PDU) => void, sendCallback?: (sent: PDU) => void): boolean;
    close(callback?: () => void): void;
    destroy(callback?: () => void): void;
    pause(): void;
    resume(): void;
  }

  export class Server extends NetServer {
    sessions: Session[];
  }

  export interface ConnectOptions {
    host?: string;
    port?: number;
    url?: string;
    tls?: boolean;
    auto_enquire_link_period?: number;
  }

  export function connect(options: ConnectOptions | string, listener?: () => void): Session;
  export function createServer(listener?: (session: Session) => void): Server;
  export function createServer(options: Record<string, unknown>, listener?: (session: Session) => void): Server;
}
