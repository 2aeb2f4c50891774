/**
 * Test control over the delivery receipts of multi-part SMS (docs/sandbox.md#multi-part-sms-receipts):
 * for a recipient with a plan, every part's receipt is held back, then released on demand in the
 * plan's part order, so a test can show receipts arriving out of order without relying on timing.
 */
export interface SmsReceiptPlan {
  /** Part numbers (1-based) in the order their receipts are released; parts not listed follow in submit order. */
  order: number[];
  /** This part's receipt says UNDELIV instead of DELIVRD. */
  failPart?: number;
}

interface HeldReceipt {
  part: number;
  fire: (stat: 'DELIVRD' | 'UNDELIV') => void;
}

export interface SmsReceiptPlanStore {
  set(to: string, plan: SmsReceiptPlan): void;
  /** True when `to` has a plan; the part's receipt is then held until released. */
  hold(to: string, part: number, fire: HeldReceipt['fire']): boolean;
  /** Sends the next `count` held receipts of `to` in plan order; answers how many were sent. */
  release(to: string, count: number): number;
  clear(): void;
}

export function createSmsReceiptPlanStore(): SmsReceiptPlanStore {
  const plans = new Map<string, SmsReceiptPlan>();
  const held = new Map<string, HeldReceipt[]>();

  const rank = (plan: SmsReceiptPlan, part: number) => {
    const at = plan.order.indexOf(part);
    return at === -1 ? plan.order.length + part : at;
  };

  return {
    set(to, plan) {
      plans.set(to, plan);
      held.set(to, []);
    },
    hold(to, part, fire) {
      if (!plans.has(to)) return false;
      held.get(to)?.push({ part, fire });
      return true;
    },
    release(to, count) {
      const plan = plans.get(to);
      const waiting = held.get(to) ?? [];
      if (!plan) return 0;
      waiting.sort((a, b) => rank(plan, a.part) - rank(plan, b.part));
      const now = waiting.splice(0, count);
      for (const receipt of now) receipt.fire(receipt.part === plan.failPart ? 'UNDELIV' : 'DELIVRD');
      return now.length;
    },
    clear() {
      plans.clear();
      held.clear();
    },
  };
}
