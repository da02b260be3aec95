/** The Email resource as the API answers it (seed 2.1): the wire format, apart from the store. */
import { sizeForHuman } from '../shared/domain/size.ts';
import { serviceTimestamp, zonelessTimestamp } from '../shared/domain/time.ts';
import type { StoredAddress, StoredEmail } from './team-store.ts';

function addressResource(address: StoredAddress) {
  return {
    id: address.id,
    display_name: address.display_name,
    email: address.email,
    created_at: serviceTimestamp(address.created_at),
    updated_at: serviceTimestamp(address.updated_at),
  };
}

/** The Email resource exactly as the API answers it (seed 2.1). */
export function emailResource(email: StoredEmail) {
  return {
    id: email.id,
    sender: addressResource(email.sender),
    inbox: addressResource(email.inbox),
    carbon_copies: email.carbonCopies,
    subject: email.subject,
    created_at: serviceTimestamp(email.createdAt),
    read: email.read ? serviceTimestamp(email.read) : null,
    favorite: email.favorite,
    has_html: email.hasHtml,
    has_text: email.hasText,
    size_in_bytes: email.size,
    attachments: email.attachments.map((attachment) => ({
      id: attachment.id,
      email_id: email.id,
      headers_hashed: attachment.headersHashed,
      file_name: attachment.fileName,
      content_type: attachment.contentType,
      size_in_bytes: attachment.size,
      created_at: zonelessTimestamp(attachment.createdAt),
      updated_at: zonelessTimestamp(attachment.createdAt),
      size_for_human: sizeForHuman(attachment.size),
    })),
    ...(email.deliveredTo ? { delivered_to: email.deliveredTo } : {}),
  };
}
export type EmailResource = ReturnType<typeof emailResource>;
