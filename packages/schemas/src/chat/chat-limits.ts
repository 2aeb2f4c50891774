/**
 * The WhatsApp Cloud API limits the chat channel adopts (docs/chat.md). Exported so that docs and tests quote the
 * same numbers as the validation.
 * https://developers.facebook.com/docs/whatsapp/cloud-api/reference/messages
 */
export const CHAT_LIMITS = {
  textBody: 4096,
  button: { minButtons: 1, maxButtons: 3, id: 256, title: 20 },
  interactiveBody: 1024,
  headerText: 60,
  footerText: 60,
  list: { actionButton: 20, maxSections: 10, maxRowsTotal: 10, rowId: 200, rowTitle: 24, rowDescription: 72, sectionTitle: 24 },
  caption: 1024,
  documentFilename: 240,
  mediaLink: 2048,
  locationText: 1000,
} as const;

/** Chat types whose object is a media link; the dispatcher checks type and size with a HEAD before sending. */
export const CHAT_MEDIA_TYPES = ['image', 'document', 'audio'] as const;
export type ChatMediaType = (typeof CHAT_MEDIA_TYPES)[number];
