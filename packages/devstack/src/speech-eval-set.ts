import type { EvalVoice } from './telephone-channel';

/**
 * The evaluation set of speech routing (docs/voice-recognition.md#evaluation-set): a speech gather's branches, the
 * utterances a caller says to it with the branch each must reach (null: none, so `no_match`), and the voices that
 * say them. The audio is rendered at run time from this text (speakThroughTelephone), never stored.
 */
export const EVAL_BRANCHES: ReadonlyArray<{ match: string; phrases: string[]; next: string }> = [
  { match: 'sales', phrases: ['purchase', 'order'], next: 'sales' },
  { match: 'support', phrases: ['technical problem', 'not working'], next: 'support' },
  { match: 'billing', phrases: ['invoice', 'payment'], next: 'billing' },
];

export interface EvalUtterance {
  text: string;
  /** The branch's `next`, or null when the utterance belongs to no branch. */
  expected: string | null;
}

export const EVAL_UTTERANCES: readonly EvalUtterance[] = [
  // A branch's own word, alone and inside a sentence.
  { text: 'sales', expected: 'sales' },
  { text: 'support', expected: 'support' },
  { text: 'billing', expected: 'billing' },
  { text: 'I want to speak to sales', expected: 'sales' },
  { text: 'I would like to talk to billing please', expected: 'billing' },
  // The same intent in other words: a synonym of the branch's `phrases`.
  { text: 'my internet is not working', expected: 'support' },
  { text: 'I would like to order a new phone', expected: 'sales' },
  { text: 'I have a question about my invoice', expected: 'billing' },
  { text: 'my connection has a technical problem', expected: 'support' },
  // Nothing any branch should take.
  { text: 'what time do you close today', expected: null },
  { text: 'can you tell me the weather', expected: null },
  { text: 'my name is john smith', expected: null },
  { text: 'no thank you goodbye', expected: null },
  { text: 'I just moved to a new house', expected: null },
  { text: 'hello', expected: null },
];

/** Four of flite's voices and four of espeak-ng's (languages with variants). */
export const EVAL_VOICES: readonly EvalVoice[] = [
  { engine: 'flite', voice: 'kal' },
  { engine: 'flite', voice: 'awb' },
  { engine: 'flite', voice: 'rms' },
  { engine: 'flite', voice: 'slt' },
  { engine: 'espeak', voice: 'en-us' },
  { engine: 'espeak', voice: 'en-gb' },
  { engine: 'espeak', voice: 'en-us+f3' },
  { engine: 'espeak', voice: 'en-gb-scotland+m3' },
];

/** The line conditions: clean, and white noise 15 dB below the speech. */
export const EVAL_CONDITIONS: ReadonlyArray<{ name: string; snrDb: number | null }> = [
  { name: 'clean', snrDb: null },
  { name: 'noise 15 dB', snrDb: 15 },
];

/** One routed utterance: where it had to go and where it went (null: `no_match`). */
export interface RoutingOutcome {
  expected: string | null;
  routed: string | null;
}

/** Routing accuracy (right branch, or no_match when none applies) and false accepts (an out-of-set utterance routed to a branch). */
export function scoreRouting(outcomes: readonly RoutingOutcome[]): { accuracy: number; falseAcceptRate: number; utterances: number } {
  const correct = outcomes.filter((o) => o.routed === o.expected).length;
  const outside = outcomes.filter((o) => o.expected === null);
  const falseAccepts = outside.filter((o) => o.routed !== null).length;
  return { accuracy: correct / outcomes.length, falseAcceptRate: outside.length === 0 ? 0 : falseAccepts / outside.length, utterances: outcomes.length };
}
