/**
 * RFC 2047 encoded words (`=?UTF-8?B?w4lUw4k=?=`, `=?ISO-8859-1?Q?Caf=E9?=`)
 * decoded into the text they stand for, as a mail program shows a header:
 * B and Q encodings, any charset the platform's TextDecoder knows (RFC 2231
 * language suffixes dropped), whitespace between adjacent encoded words
 * dropped (§6.2), and a word that cannot be decoded left as it was written.
 * Runs anywhere: the reader shows headers with it, main reads them with it.
 */

const ENCODED_WORD = /=\?([^?\s]+)\?([BbQq])\?([^?\s]*)\?=/g;

function bytesOfQ(text: string): Uint8Array {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '_') bytes.push(0x20);
    else if (char === '=' && /^[0-9A-Fa-f]{2}$/.test(text.slice(i + 1, i + 3))) {
      bytes.push(parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(char.charCodeAt(0) & 0xff);
  }
  return Uint8Array.from(bytes);
}

function bytesOfB(text: string): Uint8Array | null {
  const clean = text.replace(/=+$/, '');
  if (!/^[A-Za-z0-9+/]*$/.test(clean) || clean.length % 4 === 1) return null;
  const binary = atob(clean + '='.repeat((4 - (clean.length % 4)) % 4));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

/** One encoded word's text, or null when its charset or encoding cannot be read. */
function decodeWord(charset: string, encoding: string, text: string): string | null {
  const bytes = encoding.toUpperCase() === 'B' ? bytesOfB(text) : bytesOfQ(text);
  if (bytes === null) return null;
  try {
    // RFC 2231 allows a language after the charset: =?UTF-8*en?Q?…?=
    return new TextDecoder(charset.split('*')[0]!.trim()).decode(bytes);
  } catch {
    return null;
  }
}

export function decodeEncodedWords(value: string): string {
  let out = '';
  let at = 0;
  let lastWasWord = false;
  for (const match of value.matchAll(ENCODED_WORD)) {
    const between = value.slice(at, match.index);
    const decoded = decodeWord(match[1]!, match[2]!, match[3]!);
    // Only whitespace between two encoded words: it is not part of the text.
    if (!(lastWasWord && decoded !== null && /^[ \t\r\n]*$/.test(between))) out += between;
    out += decoded ?? match[0];
    lastWasWord = decoded !== null;
    at = match.index + match[0].length;
  }
  return out + value.slice(at);
}
