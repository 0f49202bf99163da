/**
 * Which conversation: its request and its professional. A professional names only the request
 * (`professionalId` empty: themselves); the customer and admins name both.
 */
export interface ConversationRef {
  repairRequestId: string;
  professionalId: string;
}

/** Who reads a conversation: one of its two parties, or an admin. */
export type Reader = 'customer' | 'professional' | 'admin';
