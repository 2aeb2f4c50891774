import { mapCallEnd } from '../src/sip/sip-outcome.mapper';

const final = (status: number, extra: Partial<{ localCancel: { reason: 'ring_timeout' | 'hangup'; endReason: string }; heardFromPeer: boolean }> = {}) =>
  mapCallEnd({ kind: 'final_response', status, heardFromPeer: true, ...extra });

describe('SIP outcome mapping', () => {
  it.each([
    [486, 'busy', 'busy'],
    [600, 'busy', 'busy'],
    [603, 'busy', 'declined'],
    [408, 'no-answer', 'no_answer'],
    [480, 'no-answer', 'no_answer'],
    [404, 'failed', 'sip_404'],
    [487, 'failed', 'sip_487'],
    [488, 'failed', 'sip_488'],
    [500, 'failed', 'sip_500'],
    [503, 'failed', 'sip_503'],
    [302, 'failed', 'sip_302'],
  ])('a final %i from the callee ends %s / %s', (status, outcome, endReason) => {
    expect(final(status)).toEqual({ outcome, endReason, sipStatus: status });
  });

  it('our ring-timeout CANCEL makes the 487 (or any final) a no-answer', () => {
    const localCancel = { reason: 'ring_timeout' as const, endReason: 'no_answer' };
    expect(final(487, { localCancel })).toEqual({ outcome: 'no-answer', endReason: 'no_answer', sipStatus: 487 });
    expect(final(408, { localCancel, heardFromPeer: false })).toEqual({ outcome: 'no-answer', endReason: 'no_answer', sipStatus: 408 });
  });

  it('a hangup before the answer is canceled with the hangup reason, even if the callee answered meanwhile', () => {
    const localCancel = { reason: 'hangup' as const, endReason: 'hangup_api' };
    expect(final(487, { localCancel })).toEqual({ outcome: 'canceled', endReason: 'hangup_api', sipStatus: 487 });
    expect(final(200, { localCancel })).toEqual({ outcome: 'canceled', endReason: 'hangup_api', sipStatus: 200 });
    expect(final(486, { localCancel })).toMatchObject({ outcome: 'canceled' });
  });

  it('a status the stack made up because the trunk never answered is a failure, not a no-answer', () => {
    expect(final(408, { heardFromPeer: false })).toEqual({ outcome: 'failed', endReason: 'sip_408', sipStatus: 408 });
    expect(final(503, { heardFromPeer: false })).toEqual({ outcome: 'failed', endReason: 'sip_503', sipStatus: 503 });
  });

  it('ends of an answered call are completed, with who hung up', () => {
    expect(mapCallEnd({ kind: 'remote_bye' })).toEqual({ outcome: 'completed', endReason: 'callee_hangup' });
    expect(mapCallEnd({ kind: 'local_bye', endReason: 'agent_hangup' })).toEqual({ outcome: 'completed', endReason: 'agent_hangup' });
    expect(mapCallEnd({ kind: 'unusable_answer' })).toEqual({ outcome: 'failed', endReason: 'sip_488', sipStatus: 488 });
  });

  it('a leg the trunk abandons on shutdown ends as its hangup would have', () => {
    expect(mapCallEnd({ kind: 'abandoned', answered: true, endReason: 'orchestrator_lost' })).toEqual({ outcome: 'completed', endReason: 'orchestrator_lost' });
    expect(mapCallEnd({ kind: 'abandoned', answered: false, endReason: 'orchestrator_lost' })).toEqual({ outcome: 'canceled', endReason: 'orchestrator_lost' });
  });
});
