/** WhatsApp's customer service window: free-form messages are allowed for 24 h after the customer's last message. */
const CHAT_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface ChatWindowStore {
  /** Records an inbound message from `customer` to the business number `phoneNumberId`. */
  open(phoneNumberId: string, customer: string, atMs: number): void;
  isOpen(phoneNumberId: string, customer: string, nowMs: number): boolean;
}

const digits = (value: string) => value.replace(/\D/g, '');

export function createChatWindowStore(): ChatWindowStore {
  const lastInbound = new Map<string, number>();
  const key = (phoneNumberId: string, customer: string) => `${digits(phoneNumberId)}:${digits(customer)}`;
  return {
    open(phoneNumberId, customer, atMs) {
      lastInbound.set(key(phoneNumberId, customer), atMs);
    },
    isOpen(phoneNumberId, customer, nowMs) {
      const at = lastInbound.get(key(phoneNumberId, customer));
      return at !== undefined && nowMs - at < CHAT_WINDOW_MS;
    },
  };
}
