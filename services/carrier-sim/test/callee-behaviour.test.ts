import { BACKCHANNEL_PHRASE, calleeBehaviourFor, SALES_PHRASE } from '../src/voice/callee-behaviour';

describe("the simulator's phones that talk over the agent", () => {
  it('10 says the sales phrase 1 s into the agent, 11 a backchannel first and the phrase 3 s later', () => {
    expect(calleeBehaviourFor('+447911123410')).toEqual({ kind: 'speak-over', lines: [{ atMs: 1_000, text: SALES_PHRASE }] });
    expect(calleeBehaviourFor('+447911123411')).toEqual({
      kind: 'speak-over',
      lines: [
        { atMs: 1_000, text: BACKCHANNEL_PHRASE },
        { atMs: 4_000, text: SALES_PHRASE },
      ],
    });
  });
});
