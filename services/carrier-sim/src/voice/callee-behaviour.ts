/**
 * What the simulated callee does, chosen by the last two digits of the dialled number (docs/voice.md#carrier-simulator, the calls
 * column of the sandbox number table).
 */
export type CalleeBehaviour =
  | { kind: 'answer-and-press'; digit: string }
  | { kind: 'busy' }
  | { kind: 'no-answer' }
  | { kind: 'fail' }
  | { kind: 'answer-and-speak'; text: string }
  | { kind: 'answer-silent' }
  | { kind: 'voicemail' };

export const SALES_PHRASE = 'I want to speak to sales';

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
