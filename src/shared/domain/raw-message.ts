/**
 * A raw RFC 822 message travels as bytes: its parts may each use another
 * charset (an ISO-8859-1 8bit body beside UTF-8 headers), so no one decoding
 * keeps it. What the service sends is what a webhook posts, a signature
 * covers and a copied command replays; this turns those bytes into text for
 * the eye only, losing no byte: each line is read as UTF-8 when it is valid
 * UTF-8, else in the charset its part declares, else as Windows-1252.
 */

const utf8 = new TextDecoder('utf-8', { fatal: true });

function decoderFor(charset: string | null): TextDecoder {
  try {
    if (charset) return new TextDecoder(charset);
  } catch {
    // An unknown label: the fallback below.
  }
  return new TextDecoder('windows-1252');
}

export function displayRaw(bytes: Uint8Array): string {
  let charset: string | null = null;
  let out = '';
  let start = 0;
  while (start < bytes.length) {
    let end = bytes.indexOf(0x0a, start);
    end = end === -1 ? bytes.length : end + 1;
    const line = bytes.subarray(start, end);
    let text: string;
    try {
      text = utf8.decode(line);
    } catch {
      text = decoderFor(charset).decode(line);
    }
    // The charset a part declares holds for the lines after it (until another part says otherwise).
    const declared = /^content-type:.*?charset="?([\w.:-]+)/i.exec(text) ?? /^\s+.*?charset="?([\w.:-]+)/i.exec(text);
    if (declared) charset = declared[1]!.toLowerCase();
    out += text;
    start = end;
  }
  return out;
}

/** MailCare sends the raw message through Laravel's e() (htmlspecialchars, ENT_QUOTES): this undoes exactly that. */
export function unescapeHtmlSpecialChars(text: string): string {
  return text.replace(/&(?:lt|gt|quot|#0?39|amp);/g, (entity) =>
    entity === '&lt;' ? '<' : entity === '&gt;' ? '>' : entity === '&quot;' ? '"' : entity === '&amp;' ? '&' : "'",
  );
}
