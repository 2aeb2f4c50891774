import type { SmsAdapter } from '../provider.types';

/**
 * Several transceiver binds to one SMSC as one adapter (docs/configuration.md#smpp-binds). SMSCs cap the
 * throughput and the unacknowledged submit_sm of each bind, so more binds carry more. Sends go to the binds
 * in turn, skipping one that is down while another is up; receipts and inbound messages from any bind reach
 * the same handlers (an SMSC may deliver a receipt on another bind than the one that sent the message).
 */
export function createSmppBindsAdapter(binds: ReadonlyArray<SmsAdapter & { isBound(): boolean }>): SmsAdapter {
  let next = 0;
  const pick = () => {
    for (let tried = 0; tried < binds.length; tried += 1) {
      const bind = binds[(next + tried) % binds.length];
      if (bind.isBound()) {
        next = (next + tried + 1) % binds.length;
        return bind;
      }
    }
    // None is bound: the next one queues the submit until it binds or the submit times out, as a lone bind does.
    const bind = binds[next];
    next = (next + 1) % binds.length;
    return bind;
  };
  return {
    send: (message) => pick().send(message),
    onReceipt: (handler) => binds.forEach((bind) => bind.onReceipt(handler)),
    onInbound: (handler) => binds.forEach((bind) => bind.onInbound(handler)),
    // Ready once any bind is up: the others keep reconnecting on their own, and sends skip them meanwhile.
    ready: () => Promise.any(binds.map((bind) => bind.ready())),
    close: async () => {
      await Promise.all(binds.map((bind) => bind.close()));
    },
  };
}
