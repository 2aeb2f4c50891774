export * from './media/g711-mulaw.codec';
export * from './media/rtp-packet.codec';
export * from './media/telephone-event.codec';
export * from './media/sdp.codec';
export { FRAME_BYTES } from './media/audio-frame.reframer';
export * from './telephony.types';
export { createSipTrunk, type SipTrunk } from './sip/sip-trunk';
export { resolveSipTrunkConfig, type SipTrunkConfig } from './sip/sip-trunk.config';
export { mapCallEnd, FINAL_STATUS_OUTCOMES, type CallEndCause } from './sip/sip-outcome.mapper';
