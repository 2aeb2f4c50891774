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
  | { kind: 'voicemail' };

export const SALES_PHRASE = 'I want to speak to sales';
/** Said by the 08 phone with espeak-ng: a branch phrase in a voice other than flite's (docs/voice-recognition.md). */
export const BILLING_PHRASE = 'I would like to talk to billing please';
/** Said by the 09 phone with espeak-ng: a phrase that no branch of a sales, support or billing menu should take. */
export const OUT_OF_GRAMMAR_PHRASE = 'what time do you close today';

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
