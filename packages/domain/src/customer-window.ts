/** WhatsApp's customer service window: free-form messages are allowed for 24 h after the customer last wrote. */
export const CUSTOMER_SERVICE_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * Stands in for the account in the window of the shared sandbox sender: test keys without a chat number
 * of their own send from it, so a reply to it has no owning account, yet opens the window.
 */
export const SANDBOX_WINDOW_ACCOUNT = 'sandbox';

/** One customer service window: an account's business number and one customer. */
export interface CustomerWindowKey {
  accountId: string;
  /** Our business number, E.164. */
  sender: string;
  /** The customer's number, E.164. */
  customer: string;
}
