/**
 * A name an email suggests for a file is hostile: it may hide its real
 * extension behind bidi controls (`invoice\u202Efdp.exe` shows as
 * `invoiceexe.pdf`), climb folders, or name a device. This makes it a plain
 * file name for the save dialog.
 */
const BIDI_AND_INVISIBLE = /[\u061C\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;
// eslint-disable-next-line no-control-regex -- control characters are exactly what this removes
const CONTROL = /[\u0000-\u001F\u007F-\u009F]/g;
/** Characters no common file system takes in a name. */
const RESERVED_CHARS = /[/\\:*?"<>|]/g;
/** Windows device names, with or without an extension. */
const DEVICE_NAME = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;
const MAX_LENGTH = 180;

export function safeFileName(suggested: string, fallback = 'attachment'): string {
  let name = suggested.normalize('NFC').replace(BIDI_AND_INVISIBLE, '').replace(CONTROL, '').replace(RESERVED_CHARS, '_');
  // Windows drops trailing dots and spaces; leading dots would hide the file.
  name = name.trim().replace(/[. ]+$/, '').replace(/^\.+/, '');
  if (name === '') return fallback;
  if (DEVICE_NAME.test(name)) name = `_${name}`;
  if (name.length > MAX_LENGTH) {
    const dot = name.lastIndexOf('.');
    const extension = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : '';
    name = name.slice(0, MAX_LENGTH - extension.length) + extension;
  }
  return name;
}
