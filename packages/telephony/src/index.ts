export * from './media/g711-mulaw.codec';
export * from './media/rtp-packet.codec';
export * from './media/telephone-event.codec';
export * from './media/sdp.codec';
export { FRAME_BYTES } from './media/audio-frame.reframer';
