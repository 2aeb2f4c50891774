// The carrier simulator's phones speak in the voice a test-mode call asks for (docs/voice.md#carrier-simulator): the
// orchestrator copies the call's `metadata.sim_caller_voice` into this INVITE header, the simulator reads it back.

/** The INVITE header that carries the voice; `x-` so that no SIP element gives it a meaning. */
export const SIM_CALLER_VOICE_HEADER = 'x-sim-caller-voice';

/** A local speech engine and one of its voices, as the simulator's phones speak. */
export interface SimCallerVoice {
  engine: 'flite' | 'espeak';
  voice: string;
}

/** flite's voices of the evaluation set (docs/voice-recognition.md). */
const FLITE_VOICES = ['kal', 'awb', 'rms', 'slt'];
/** An espeak-ng language with optional variant (`en-us`, `en-gb-scotland+m3`): no option-like or header-breaking text. */
const ESPEAK_VOICE = /^[a-z]{2,3}(-[a-z0-9]{1,12}){0,3}(\+[a-z0-9]{1,8})?$/;

/** `flite:kal` or `espeak:en-gb+m3`; null for anything else, so nothing unchecked reaches a header or a command line. */
export function parseSimCallerVoice(value: unknown): SimCallerVoice | null {
  if (typeof value !== 'string') return null;
  const [engine, voice, ...rest] = value.split(':');
  if (rest.length > 0 || voice === undefined) return null;
  if (engine === 'flite' && FLITE_VOICES.includes(voice)) return { engine, voice };
  if (engine === 'espeak' && ESPEAK_VOICE.test(voice)) return { engine, voice };
  return null;
}
