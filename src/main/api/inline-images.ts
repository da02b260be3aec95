/**
 * Images an HTML email carries inside itself (`<img src="cid:…">`), as data:
 * URLs the sandboxed frame may show. Read from the raw message main already
 * has (one request, cached), so nothing is fetched from anywhere else.
 */

export const INLINE_LIMITS = { images: 30, bytesEach: 2_000_000, bytesTotal: 10_000_000 } as const;
const IMAGE = /^image\/(png|jpe?g|gif|webp|bmp)$/i;

export async function inlineImages(raw: string): Promise<Record<string, string>> {
  // Loaded on first use: main's start-up does not pay for a MIME parser most sessions never need.
  const { simpleParser } = await import('mailparser');
  const parsed = await simpleParser(raw, { skipHtmlToText: true, skipTextToHtml: true, skipTextLinks: true });
  const found: Record<string, string> = {};
  let total = 0;
  for (const attachment of parsed.attachments) {
    const cid = attachment.cid?.replace(/^<|>$/g, '');
    if (!cid || !IMAGE.test(attachment.contentType)) continue;
    const size = attachment.content.length;
    if (size > INLINE_LIMITS.bytesEach || total + size > INLINE_LIMITS.bytesTotal) continue;
    if (Object.keys(found).length >= INLINE_LIMITS.images) break;
    total += size;
    found[cid] = `data:${attachment.contentType.toLowerCase()};base64,${attachment.content.toString('base64')}`;
  }
  return found;
}
