// The telephony adapter (see docs/voice-telephony.md, "Telephony layer"): the CallLeg interface, its SIP trunk
// implementation, and the media primitives, which a SIP callee (the carrier simulator) can reuse.
export * from './telephony.types';
export { createSipTrunk, type SipTrunk } from './sip/sip-trunk';
export { resolveSipTrunkConfig, type SipTrunkConfig } from './sip/sip-trunk.config';
export { mapCallEnd, FINAL_STATUS_OUTCOMES, type CallEndCause } from './sip/sip-outcome.mapper';
export * from './media/g711-mulaw.codec';
export * from './media/rtp-packet.codec';
export * from './media/telephone-event.codec';
export * from './media/telephone-event.detector';
export * from './media/dtmf-event.plan';
export * from './media/sdp.codec';
export * from './media/audio-frame.reframer';
export * from './media/rtp-outbound.stream';
export * from './media/rtp-paced.sender';
export * from './media/rtp-inbound.handler';
export * from './media/rtp-session';
export { evenPortsOf, type RtpPortRange } from './media/rtp-port.range';
export { createSipCalleeServer, type SipCalleeServer, type IncomingCall, type CalleeLeg } from './sip/sip-callee.server';
export { openThreadedRtpSession } from './media/threaded-rtp-session';
export { onMediaThreadLost, type MediaThreadLoss } from './media/media-thread.client';
export type { PlaybackQueue } from './media/playback.queue';
export { SIM_CALLER_VOICE_HEADER, parseSimCallerVoice, type SimCallerVoice } from './sip/sim-caller-voice';
