import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AccountManager } from '../../src/main/account/accounts.ts';
import { TokenVault } from '../../src/main/account/vault.ts';
import { safeFileName } from '../../src/main/file-names.ts';
import { createHandlers, dispatch } from '../../src/main/handlers.ts';
import { startReferenceService } from '../../src/server/index.ts';
import { testCipher } from '../support/cipher.ts';
import { rawMail } from '../support/mail.ts';

/** Security finding 11: what an email calls its attachment is not what the save dialog gets. */
describe('attachment names', () => {
  it('lose bidi controls, control characters, folders and device names', () => {
    expect(safeFileName('invoice\u202Efdp.exe')).toBe('invoicefdp.exe');
    expect(safeFileName('a\u2066b\u2069c\u200F.pdf')).toBe('abc.pdf');
    expect(safeFileName('..')).toBe('attachment');
    expect(safeFileName('.')).toBe('attachment');
    expect(safeFileName('   ')).toBe('attachment');
    expect(safeFileName('../../.bashrc')).toBe('_.._.bashrc');
    expect(safeFileName('C:\\Windows\\evil.dll')).toBe('C__Windows_evil.dll');
    expect(safeFileName('report\u0000.pdf.exe')).toBe('report.pdf.exe');
    expect(safeFileName('CON')).toBe('_CON');
    expect(safeFileName('lpt1.txt')).toBe('_lpt1.txt');
    expect(safeFileName('notes. . .')).toBe('notes');
    expect(safeFileName('.hidden')).toBe('hidden');
    expect(safeFileName('Résumé 2026.pdf')).toBe('Résumé 2026.pdf');
    const long = safeFileName(`${'x'.repeat(500)}.pdf`);
    expect(long.length).toBe(180);
    expect(long.endsWith('.pdf')).toBe(true);
  });

  it('reach the save dialog already made safe, from a real email', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'inbox-desk-names-'));
    const service = await startReferenceService({ teams: [{ id: 't', token: 'names-token' }] });
    const encoded = `=?UTF-8?B?${Buffer.from('invoice\u202Efdp.exe').toString('base64')}?=`;
    const [emailId] = await service.inject(rawMail({ subject: 'Invoice', attachment: { name: encoded, type: 'application/pdf', content: '%PDF-1' } }));
    const offered: string[] = [];
    const accounts = await AccountManager.load(join(dir, 'settings.json'), new TokenVault(testCipher()));
    const handlers = createHandlers({
      accounts,
      mail: {
        startDemo: async () => {
          throw new Error('no demo');
        },
      },
      desktop: {
        openExternal: async () => undefined,
        saveFile: async (name) => {
          offered.push(name);
          return null;
        },
        confirm: async () => false,
      },
      emit: () => undefined,
      app: { name: 'x', version: 'x', platform: 'linux' },
    });
    try {
      await dispatch(handlers, 'saveAccount', { name: 'T', baseUrl: service.baseUrl, teamId: 't', token: 'names-token' });
      const record = await dispatch(handlers, 'getEmail', { id: emailId! });
      if (!record.ok) throw new Error(record.error.message);
      const attachment = (record.value as { attachments: { id: string; file_name: string }[] }).attachments[0]!;
      expect(attachment.file_name).toBe('invoice\u202Efdp.exe');
      expect(await dispatch(handlers, 'saveAttachment', { emailId: emailId!, attachmentId: attachment.id })).toEqual({ ok: true, value: { savedTo: null } });
      expect(offered).toEqual(['invoicefdp.exe']);
    } finally {
      handlers.dispose();
      await service.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
