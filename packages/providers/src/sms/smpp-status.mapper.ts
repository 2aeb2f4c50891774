import { ProviderError, ProviderFailureKind } from '../provider-error';

/** SMPP v3.4 §5.1.3 command_status values that decide how a refused submit_sm is retried. */
const ESME_RSYSERR = 0x08;
const ESME_RMSGQFUL = 0x14;
const ESME_RTHROTTLED = 0x58;
/** Answer to a deliver_sm we could not hand off; the SMSC keeps the message and retries. */
export const ESME_RX_T_APPN = 0x64;

const STATUS_NAMES: Readonly<Record<number, string>> = {
  0x01: 'ESME_RINVMSGLEN',
  0x04: 'ESME_RINVBNDSTS',
  0x08: 'ESME_RSYSERR',
  0x0a: 'ESME_RINVSRCADR',
  0x0b: 'ESME_RINVDSTADR',
  0x14: 'ESME_RMSGQFUL',
  0x45: 'ESME_RSUBMITFAIL',
  0x58: 'ESME_RTHROTTLED',
};

/** `0x0B` style, the form SMPP documents and operators quote. */
function formatCommandStatus(status: number): string {
  return `0x${status.toString(16).toUpperCase().padStart(2, '0')}`;
}

function submitStatusKind(status: number): ProviderFailureKind {
  if (status === ESME_RTHROTTLED) return 'throttled';
  if (status === ESME_RMSGQFUL || status === ESME_RSYSERR) return 'transient';
  return 'permanent';
}

export function mapSubmitStatus(status: number): ProviderError {
  const code = formatCommandStatus(status);
  const name = STATUS_NAMES[status];
  return new ProviderError(submitStatusKind(status), code, `submit_sm refused with ${name ? `${name} (${code})` : code}`);
}

/** Failures of the link itself: the submit may or may not have reached the SMSC, so it is retried. */
export function linkFailure(code: 'not_bound' | 'connection_lost' | 'submit_timeout' | 'closed', message: string): ProviderError {
  return new ProviderError('transient', code, message);
}
