import type { Session } from 'smpp';

/**
 * The smpp library writes every PDU with its own `socket.write`, so a window of 50 `submit_sm` answered in
 * one turn, or a lane of receipts falling due together, cost one system call each: the SMSC's largest cost
 * under load (docs/performance/carrier-sim.md#carrier-sim). Corking the socket from the first PDU of a turn to the end
 * of that turn sends them in one write. The bytes on the wire are the same PDUs in the same order; only
 * the TCP segments they travel in change, which SMPP peers must already cope with.
 */
export function coalesceWritesPerTurn(session: Session): void {
  const socket = session.socket;
  const send = session.send.bind(session);
  let corked = false;
  const uncork = () => {
    corked = false;
    socket.uncork();
  };
  session.send = (pdu, responseCallback, sendCallback) => {
    if (!corked && socket.writable) {
      corked = true;
      socket.cork();
      process.nextTick(uncork);
    }
    return send(pdu, responseCallback, sendCallback);
  };
}
