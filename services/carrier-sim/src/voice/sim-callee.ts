import {
  createSipCalleeServer,
  parseSimCallerVoice,
  SIM_CALLER_VOICE_HEADER,
  type CalleeLeg,
  type IncomingCall,
  type SipCalleeServer,
} from '@switchboard/telephony';
import type { Logger } from '../support/json-logger';
import { fitMulaw, speakMulaw, toneMulaw, type CalleeVoice } from './callee-audio';
import { calleeBehaviourFor, type CalleeBehaviour } from './callee-behaviour';
import { createPromptListener, createSpeechOnsetListener } from './prompt-listener';

export interface SimCalleeOptions {
  host: string;
  sipPort: number;
  /** How long the phone rings before it is answered. */
  ringMs: number;
  /** A callee never keeps a call longer than this; it hangs up. */
  maxCallMs: number;
  logger: Logger;
}

const VOICEMAIL_GREETING = 'Hello, you have reached the voicemail box of Alex Morgan. I am not able to take your call right now so please leave a message';

/**
 * The simulated phones of the sandbox numbers (docs/voice.md#carrier-simulator): a real SIP UAS with RTP on loopback. The callee
 * hears the agent's prompts (speech followed by silence) and reacts as its number's row says.
 */
export async function startSimCallee(opts: SimCalleeOptions): Promise<SipCalleeServer> {
  const { logger } = opts;
  const greeting = speakMulaw(VOICEMAIL_GREETING).then((speech) => Buffer.concat([fitMulaw(speech, 4_000), toneMulaw(1_000, 400)]));
  greeting.catch(() => undefined);

  const converse = (leg: CalleeLeg, behaviour: CalleeBehaviour) => {
    const safety = setTimeout(() => leg.hangup(), opts.maxCallMs);
    void leg.ended.then(() => clearTimeout(safety));
    switch (behaviour.kind) {
      case 'answer-and-press': {
        let presses = 0;
        leg.on(
          'audio',
          createPromptListener(() => presses++ < 5 && leg.sendDtmf(behaviour.digit)),
        );
        return;
      }
      case 'answer-and-speak': {
        let spoke = false;
        const speak = async () => {
          if (spoke) return;
          spoke = true;
          leg.play(await speakMulaw(behaviour.text, behaviour.voice));
          // Long enough to hear the agent's answer begin, as a person would.
          leg.on('playback-drained', () => setTimeout(() => leg.hangup(), 6_000));
        };
        leg.on(
          'audio',
          createPromptListener(() => void speak()),
        );
        return;
      }
      case 'speak-over': {
        // Synthesised at the answer, so each line starts on time.
        const lines = Promise.all(behaviour.lines.map(async (line) => ({ atMs: line.atMs, audio: await speakMulaw(line.text, behaviour.voice) })));
        lines.catch((error: Error) => logger.warn('sim callee speech failed', { error: error.message }));
        let saidAll = false;
        let hangingUp = false;
        // After the last line, long enough to hear the agent's answer begin, as 04 does.
        leg.on('playback-drained', () => {
          if (!saidAll || hangingUp) return;
          hangingUp = true;
          setTimeout(() => leg.hangup(), 6_000);
        });
        leg.on(
          'audio',
          createSpeechOnsetListener(() => {
            void lines.then((spoken) => {
              spoken.forEach(({ atMs, audio }, i) =>
                setTimeout(() => {
                  saidAll = i === spoken.length - 1;
                  leg.play(audio);
                }, atMs),
              );
            });
          }),
        );
        return;
      }
      case 'voicemail':
        void greeting.then((audio) => leg.play(audio));
        return;
      default:
        return;
    }
  };

  const onInvite = (call: IncomingCall) => {
    const behaviour = withCallerVoice(calleeBehaviourFor(call.to), parseSimCallerVoice(call.header(SIM_CALLER_VOICE_HEADER)));
    logger.info('sim call', {
      to: call.to,
      behaviour: behaviour.kind,
      ...('voice' in behaviour && behaviour.voice ? { voice: `${behaviour.voice.engine}:${behaviour.voice.voice}` } : {}),
    });
    switch (behaviour.kind) {
      case 'busy':
        return call.reject(486, 'Busy Here');
      case 'fail':
        return call.reject(503, 'Service Unavailable');
      case 'no-answer':
        return call.ring(); // until the caller CANCELs
      default: {
        call.ring();
        const timer = setTimeout(() => {
          call.answer().then(
            (leg) => converse(leg, behaviour),
            (error: Error) => logger.warn('sim call not answered', { error: error.message }),
          );
        }, opts.ringMs);
        void call.canceled.then(() => clearTimeout(timer));
      }
    }
  };
  return createSipCalleeServer({ bindAddress: opts.host, port: opts.sipPort, onInvite });
}

/** The voice the call asked for (its metadata's `sim_caller_voice`) replaces the number's own, for the phones that speak. */
function withCallerVoice(behaviour: CalleeBehaviour, voice: CalleeVoice | null): CalleeBehaviour {
  if (!voice || (behaviour.kind !== 'answer-and-speak' && behaviour.kind !== 'speak-over')) return behaviour;
  return { ...behaviour, voice };
}
