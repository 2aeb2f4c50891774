import type { CalleeVoice } from './callee-audio';

/**
 * What the simulated callee does, chosen by the last two digits of the dialled number (docs/voice.md#carrier-simulator, the calls
 * column of the sandbox number table).
 */
export type CalleeBehaviour =
  | { kind: 'answer-and-press'; digit: string }
  | { kind: 'busy' }
  | { kind: 'no-answer' }
  | { kind: 'fail' }
  | { kind: 'answer-and-speak'; text: string; voice?: CalleeVoice }
  | { kind: 'answer-silent' }
  | { kind: 'speak-over'; lines: SpokenLine[]; voice?: CalleeVoice }
  | { kind: 'voicemail' };

/** A line the callee says `atMs` after the agent's first speech began, whether or not the agent is still talking. */
export interface SpokenLine {
  atMs: number;
  text: string;
}

export const SALES_PHRASE = 'I want to speak to sales';
/** Said by the 08 phone with espeak-ng: a branch phrase in a voice other than flite's (docs/voice-recognition.md). */
export const BILLING_PHRASE = 'I would like to talk to billing please';
/** Said by the 09 phone with espeak-ng: a phrase that no branch of a sales, support or billing menu should take. */
export const OUT_OF_GRAMMAR_PHRASE = 'what time do you close today';

/** Said by the 11 phone while the agent talks: a backchannel, shorter than the orchestrator's 400 ms rule (docs/voice-agents.md#full-duplex-listening). */
export const BACKCHANNEL_PHRASE = 'uh-huh';

export function calleeBehaviourFor(dialled: string): CalleeBehaviour {
  switch (dialled.replace(/\D/g, '').slice(-2)) {
    case '01':
      return { kind: 'busy' };
    case '02':
      return { kind: 'no-answer' };
    case '03':
      return { kind: 'fail' };
    case '04':
      return { kind: 'answer-and-speak', text: SALES_PHRASE };
    case '08':
      return { kind: 'answer-and-speak', text: BILLING_PHRASE, voice: { engine: 'espeak', voice: 'en-us' } };
    case '09':
      return { kind: 'answer-and-speak', text: OUT_OF_GRAMMAR_PHRASE, voice: { engine: 'espeak', voice: 'en-gb' } };
    case '10':
      // Talks over the agent's greeting, 1 s into it.
      return { kind: 'speak-over', lines: [{ atMs: 1_000, text: SALES_PHRASE }] };
    case '11':
      // Acknowledges the agent 1 s into its greeting, then cuts in 3 s later.
      return {
        kind: 'speak-over',
        lines: [
          { atMs: 1_000, text: BACKCHANNEL_PHRASE },
          { atMs: 4_000, text: SALES_PHRASE },
        ],
      };
    case '05':
      return { kind: 'answer-silent' };
    case '06':
      return { kind: 'answer-and-press', digit: '2' };
    case '07':
      return { kind: 'voicemail' };
    default:
      return { kind: 'answer-and-press', digit: '1' };
  }
}
