import { ValidationError } from '@switchboard/domain';
import { createAgentRequestValidator } from '@switchboard/schemas';

const validate = createAgentRequestValidator();

function problems(body: unknown): string[] {
  try {
    validate(body);
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).errors.map((e) => e.field);
  }
}

describe('agent flow validation', () => {
  it('accepts a flow whose every node is reachable and every exit lands on a node', () => {
    expect(
      problems({
        name: 'ok',
        flow: {
          start: 'ask',
          nodes: {
            ask: { type: 'gather', input: 'dtmf', timeout_seconds: 5, branches: [{ match: '1', next: 'yes' }], no_input: 'bye', no_match: 'bye' },
            yes: { type: 'http', method: 'GET', url: 'https://example.com/x', save_as: 'r', next: 'check', on_error: 'bye' },
            check: { type: 'branch', conditions: [{ if: '{{r.ok}}', next: 'bye' }], else: 'bye' },
            bye: { type: 'hangup' },
          },
        },
      }),
    ).toEqual([]);
  });

  it('takes a speech branch with other phrases and the keywords method, and names a bad method or an empty phrase', () => {
    const flow = (ask: Record<string, unknown>) => ({
      name: 'speech',
      flow: {
        start: 'ask',
        nodes: { ask: { type: 'gather', input: 'speech', timeout_seconds: 5, no_input: 'bye', no_match: 'bye', ...ask }, bye: { type: 'hangup' } },
      },
    });
    expect(problems(flow({ recognition: 'keywords', branches: [{ match: 'sales', phrases: ['purchase', 'order'], next: 'bye' }] }))).toEqual([]);
    expect(problems(flow({ recognition: 'magic', branches: [{ match: 'sales', phrases: [''], next: 'bye' }] }))).toEqual(
      expect.arrayContaining(['/flow/nodes/ask/recognition', '/flow/nodes/ask/branches/0/phrases/0']),
    );
  });

  it('names an unknown type, a dangling exit in a list, a bad field and a missing start by JSON Pointer', () => {
    expect(
      problems({
        name: 'bad',
        flow: {
          start: 'missing',
          nodes: {
            a: { type: 'teleport' },
            b: { type: 'gather', input: 'dtmf', timeout_seconds: 0, branches: [{ match: '1', next: 'zz' }], no_input: 'b', no_match: 'b' },
          },
        },
      }).sort(),
    ).toEqual(['/flow/nodes/a/type', '/flow/nodes/b/branches/0/next', '/flow/nodes/b/timeout_seconds', '/flow/start']);
  });

  it('takes interruptible on say, gather and llm and the turn-taking lengths on the flow, and names bad ones', () => {
    const flow = (extra: Record<string, unknown>, greet: Record<string, unknown>) => ({
      name: 'duplex',
      flow: { start: 'greet', ...extra, nodes: { greet: { type: 'say', text: 'Hello.', next: 'bye', ...greet }, bye: { type: 'hangup' } } },
    });
    expect(problems(flow({ backchannel_ms: 600 }, { interruptible: false }))).toEqual([]);
    expect(problems(flow({ backchannel_ms: 5_000 }, {}))).toEqual(['/flow/backchannel_ms']);
    expect(problems(flow({}, { interruptible: 'no' }))).toEqual(['/flow/nodes/greet/interruptible']);
    expect(problems(flow({ end_of_speech_ms: 700, max_utterance_seconds: 30 }, {}))).toEqual([]);
    expect(problems(flow({ end_of_speech_ms: 50, max_utterance_seconds: 600 }, {}))).toEqual(['/flow/end_of_speech_ms', '/flow/max_utterance_seconds']);
  });

  it('names the nodes that cannot be reached from start', () => {
    expect(problems({ name: 'x', flow: { start: 'a', nodes: { a: { type: 'say', text: 'hi', next: 'a' }, lost: { type: 'hangup' } } } })).toEqual([
      '/flow/nodes/lost',
    ]);
  });

  it('escapes node ids in pointers (RFC 6901)', () => {
    expect(problems({ name: 'x', flow: { start: 'a', nodes: { a: { type: 'hangup' }, 'b-1': { type: 'hangup' } } } })).toEqual(['/flow/nodes/b-1']);
  });
});
