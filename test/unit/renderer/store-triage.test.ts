/**
 * The app's real store (createAppStore), driven in Node on a fake main and a
 * fake clock: what a user sees (rows, highlight, notices) and what main
 * receives. The browser specs keep what only a browser shows (focus, paint, scroll).
 */
import { describe, expect, it } from 'vitest';
import { createAppStore, type AppState } from '../../../src/renderer/src/store.ts';
import { UNDO_MS } from '../../../src/shared/domain/settings.ts';
import { email, fakeMain, rule, settle, type FakeMain } from './fake-main.ts';

const range = (n: number, from = 1) => Array.from({ length: n }, (_, i) => from + i);

async function started(main: FakeMain, patch: Partial<AppState> = {}) {
  const store = createAppStore(main.effects);
  // As App.tsx subscribes main's events.
  main.listen((event, { id, kind, error }) => {
    const state = store.getState();
    if (event === 'deleteSettled') return kind === 'automation' ? state.ruleDeleteSettled(id) : state.deleteSettled(id, kind);
    if (kind === 'automation') return state.restoreRule(id, error!);
    return kind === 'all' ? state.deleteAllFailed(id, error!) : state.restoreDeleted(id, error!);
  });
  store.setState(patch);
  await store.getState().loadList();
  return store;
}

const rows = (store: { getState: () => AppState }) => store.getState().list!.data.map((e) => e.id);
const notices = (store: { getState: () => AppState }) => store.getState().notices.map((n) => n.text);
const calls = (main: FakeMain, method: string) => main.log.filter((c) => c.method === method).map((c) => (c.arg as { id: string }).id);

describe('deleting with undo (the inbox)', () => {
  it('brings 25 bulk-deleted emails back in their order, with one notice spent and one told', async () => {
    const main = fakeMain({ emails: range(30).map((n) => email(n)) });
    const store = await started(main);
    const before = rows(store);
    store.getState().checkAll(true);
    await store.getState().bulk('delete');
    expect(rows(store)).toEqual([]);
    expect(notices(store)).toEqual(['Deleted 25 emails.']);
    await store.getState().undoDelete();
    expect(rows(store)).toEqual(before);
    expect(notices(store)).toEqual(['25 emails are back.']);
    expect(store.getState().list!.meta.total).toBe(30);
    await main.clock.advance(UNDO_MS * 3);
    expect(main.writes).toEqual([]);
    expect(main.emails).toHaveLength(30);
  });

  it('steps back through three deletes in order, each toast gone once spent, and a fourth z does nothing', async () => {
    const main = fakeMain({ emails: range(10).map((n) => email(n)) });
    const store = await started(main);
    const before = rows(store);
    for (const id of ['e0010', 'e0007', 'e0003']) await store.getState().deleteEmail(id);
    expect(rows(store)).toEqual(before.filter((id) => !['e0010', 'e0007', 'e0003'].includes(id)));
    expect(store.getState().notices.filter((n) => n.action)).toHaveLength(3);
    await store.getState().undoDelete();
    expect(rows(store)).toContain('e0003');
    expect(rows(store)).not.toContain('e0007');
    await store.getState().undoDelete();
    await store.getState().undoDelete();
    expect(rows(store)).toEqual(before);
    expect(store.getState().notices.filter((n) => n.action)).toHaveLength(0);
    const undos = calls(main, 'undoDelete');
    await store.getState().undoDelete();
    expect(calls(main, 'undoDelete')).toEqual(undos);
    expect(undos).toEqual(['e0003', 'e0007', 'e0010']);
  });

  it('z pressed before main has answered a delete undoes that delete, not the one before it', async () => {
    const main = fakeMain({ emails: range(5).map((n) => email(n)) });
    const store = await started(main);
    await store.getState().deleteEmail('e0005');
    const release = main.hold('deleteEmail');
    const second = store.getState().deleteEmail('e0004');
    const undo = store.getState().undoDelete();
    await settle();
    expect(calls(main, 'undoDelete')).toEqual([]);
    release();
    await Promise.all([second, undo]);
    expect(calls(main, 'undoDelete')).toEqual(['e0004']);
    expect(rows(store)).toEqual(['e0004', 'e0003', 'e0002', 'e0001']);
    await main.clock.advance(UNDO_MS + 1000);
    expect(main.writes).toEqual(['delete e0005']);
  });

  it('undoing the delete of the open email opens it again, and the highlight is the open email', async () => {
    const main = fakeMain({ emails: range(5).map((n) => email(n)) });
    const store = await started(main);
    await store.getState().openMessage('e0003');
    await store.getState().deleteEmail();
    await settle();
    // The reader went on to the next email, and the highlight with it.
    expect(store.getState().openId).toBe('e0002');
    expect(store.getState().selectedId).toBe('e0002');
    await store.getState().undoDelete();
    await settle();
    expect(store.getState().openId).toBe('e0003');
    expect(store.getState().selectedId).toBe('e0003');
    expect(rows(store)).toEqual(['e0005', 'e0004', 'e0003', 'e0002', 'e0001']);
  });

  it('undoing a delete of another email keeps the highlight on the open one', async () => {
    const main = fakeMain({ emails: range(5).map((n) => email(n)) });
    const store = await started(main);
    await store.getState().openMessage('e0002');
    store.getState().toggleChecked('e0005');
    await store.getState().bulk('delete');
    expect(store.getState().selectedId).toBe('e0002');
    await store.getState().undoDelete();
    expect(store.getState().selectedId).toBe('e0002');
    expect(store.getState().openId).toBe('e0002');
  });

  it('a DELETE main refuses puts the email back at its row with the reason, and z has nothing left', async () => {
    const main = fakeMain({ emails: range(4).map((n) => email(n)) });
    const store = await started(main);
    main.failing.deleteEmail = { kind: 'forbidden', message: 'This token may not delete mail.', details: {} };
    await store.getState().deleteEmail('e0003');
    expect(rows(store)).toEqual(['e0004', 'e0003', 'e0002', 'e0001']);
    expect(notices(store)).toEqual(['“Email 3” was not deleted: This token may not delete mail.']);
    await store.getState().undoDelete();
    expect(calls(main, 'undoDelete')).toEqual([]);
  });

  it('once the window closes the delete is the server’s: z is too late to reach it, and the page refills', async () => {
    const main = fakeMain({ emails: range(30).map((n) => email(n)) });
    const store = await started(main);
    await store.getState().deleteEmail('e0030');
    expect(rows(store)).toHaveLength(24);
    const lists = calls(main, 'listEmails').length;
    await main.clock.advance(UNDO_MS + 500);
    expect(main.writes).toEqual(['delete e0030']);
    expect(calls(main, 'listEmails').length).toBe(lists + 1);
    expect(rows(store)).toHaveLength(25);
    expect(rows(store)[0]).toBe('e0029');
    await store.getState().undoDelete();
    expect(calls(main, 'undoDelete')).toEqual([]);
  });

  it('a list answer arriving inside the window keeps the deleted email off the page and out of the count', async () => {
    const main = fakeMain({ emails: range(3).map((n) => email(n)) });
    const store = await started(main);
    await store.getState().deleteEmail('e0002');
    await store.getState().loadList();
    expect(rows(store)).toEqual(['e0003', 'e0001']);
    expect(store.getState().list!.meta.total).toBe(2);
  });

  it('asks before deleting when settings say so, naming the email, and sends nothing on No', async () => {
    const main = fakeMain({ emails: range(3).map((n) => email(n)) });
    const store = await started(main);
    store.setState({ settings: { ...store.getState().settings, confirmDelete: true }, selectedId: 'e0002' });
    main.answer = false;
    store.getState().askDeleteEmail();
    await settle();
    expect(main.questions).toEqual(['Delete “Email 2” from sender2@example.test?']);
    expect(calls(main, 'deleteEmail')).toEqual([]);
    main.answer = true;
    store.getState().askDeleteEmail();
    await settle();
    expect(calls(main, 'deleteEmail')).toEqual(['e0002']);
  });
});

describe('deleting with undo (the rules, through the same helper)', () => {
  it('steps back through two rule deletes in order, selecting each as it returns', async () => {
    const main = fakeMain({ automations: [rule(1), rule(2), rule(3)] });
    const store = createAppStore(main.effects);
    await store.getState().loadAutomations();
    await store.getState().removeAutomation('r1');
    await store.getState().removeAutomation('r3');
    expect(store.getState().automations!.map((a) => a.id)).toEqual(['r2']);
    await store.getState().undoRemoveAutomation();
    expect(store.getState().automations!.map((a) => a.id)).toEqual(['r2', 'r3']);
    expect(store.getState().selectedAutomationId).toBe('r3');
    await store.getState().undoRemoveAutomation();
    expect(store.getState().automations!.map((a) => a.id)).toEqual(['r1', 'r2', 'r3']);
    await main.clock.advance(UNDO_MS * 2);
    expect(main.writes).toEqual([]);
  });

  it('a server without rule deletes gets the rule back, the buttons hidden and one plain sentence', async () => {
    const main = fakeMain({ automations: [rule(1), rule(2)] });
    const store = createAppStore(main.effects);
    await store.getState().loadAutomations();
    await store.getState().removeAutomation('r1');
    // Main reports the DELETE it sent after the window as unsupported.
    store.getState().restoreRule('r1', { kind: 'unsupported', message: 'HTTP 405', details: {} });
    expect(store.getState().automations!.map((a) => a.id)).toEqual(['r1', 'r2']);
    expect(store.getState().automationsLack.delete).toBe(true);
    expect(notices(store)).toEqual(['This server does not offer deleting rules; the rule is still there.']);
    // With delete known to be missing, # asks nothing and sends nothing.
    store.getState().askRemoveAutomation('r2');
    await settle();
    expect(calls(main, 'deleteAutomation')).toEqual(['r1']);
  });
});

describe('the list under the keyboard', () => {
  it('j past the last row lands on the next page’s first, k before the first on the previous page’s last', async () => {
    const main = fakeMain({ emails: range(60).map((n) => email(n)) });
    const store = await started(main);
    store.getState().moveSelection(1_000_000);
    expect(store.getState().selectedId).toBe('e0036');
    store.getState().moveSelection(1);
    await settle();
    expect(store.getState().page).toBe(2);
    expect(store.getState().selectedId).toBe('e0035');
    store.getState().moveSelection(-1);
    await settle();
    expect(store.getState().page).toBe(1);
    expect(store.getState().selectedId).toBe('e0036');
  });

  it('new mail slides in above, the page stays 25 rows, and the highlighted email is never pushed off it', async () => {
    const main = fakeMain({ emails: range(40).map((n) => email(n)) });
    const store = await started(main);
    const query = main.log.filter((c) => c.method === 'listEmails').at(-1)!.arg as Parameters<AppState['mergePolled']>[0];
    const poll = async () => store.getState().mergePolled(query, await main.effects.call('listEmails', query));
    store.setState({ selectedId: 'e0030' });
    main.emails.push(email(41), email(42));
    await poll();
    expect(rows(store).slice(0, 3)).toEqual(['e0042', 'e0041', 'e0040']);
    expect(rows(store)).toHaveLength(25);
    expect(store.getState().selectedId).toBe('e0030');
    expect(store.getState().newIds).toEqual(['e0042', 'e0041']);
    expect(store.getState().list!.meta).toMatchObject({ total: 42, from: 1, to: 25 });
    // The highlight on the last row: it stays, and the pager counts the rows shown.
    store.setState({ selectedId: rows(store).at(-1)! });
    main.emails.push(email(43));
    await poll();
    expect(rows(store)).toHaveLength(26);
    expect(rows(store).at(-1)).toBe(store.getState().selectedId);
    expect(store.getState().list!.meta).toMatchObject({ total: 43, from: 1, to: 26 });
  });

  it('what the server no longer holds (retention pruned it, another client deleted it) leaves page 1 at the next poll, and the pager counts what is there', async () => {
    const main = fakeMain({ emails: range(15).map((n) => email(n)) });
    const store = await started(main);
    const query = main.log.filter((c) => c.method === 'listEmails').at(-1)!.arg as Parameters<AppState['mergePolled']>[0];
    const poll = async () => store.getState().mergePolled(query, await main.effects.call('listEmails', query));
    expect(rows(store)).toHaveLength(15);
    // Keep 10: the server prunes the five oldest as mail arrives; two more arrive.
    main.emails.splice(0, main.emails.length, ...range(10, 8).map((n) => email(n)));
    await poll();
    expect(rows(store)).toEqual(range(10, 8).reverse().map((n) => `e${String(n).padStart(4, '0')}`));
    expect(store.getState().list!.meta).toMatchObject({ total: 10, from: 1, to: 10 });
    // A row deleted elsewhere goes too, but the email being read stays until it is closed.
    store.setState({ openId: 'e0012', selectedId: 'e0012' });
    main.emails.splice(main.emails.findIndex((e) => e.id === 'e0012'), 1);
    main.emails.splice(main.emails.findIndex((e) => e.id === 'e0011'), 1);
    await poll();
    expect(rows(store)).toContain('e0012');
    expect(rows(store)).not.toContain('e0011');
  });

  it('a star stays on while its write is on the way, though a poll or a refresh read before it says otherwise', async () => {
    const main = fakeMain({ emails: range(5).map((n) => email(n)) });
    const store = await started(main);
    const query = main.log.filter((c) => c.method === 'listEmails').at(-1)!.arg as Parameters<AppState['mergePolled']>[0];
    const starred = () => store.getState().list!.data.find((e) => e.id === 'e0003')!.favorite;
    // A poll read before the star (the server still says no star), answered after it.
    const stale = await main.effects.call('listEmails', query);
    const release = main.hold('setFavorite');
    const writing = store.getState().toggleFavorite('e0003');
    expect(starred()).toBe(true);
    store.getState().mergePolled(query, stale);
    expect(starred()).toBe(true);
    // A refresh while the write still waits: the server has not heard of the star yet.
    await store.getState().loadList({ fresh: true });
    expect(starred()).toBe(true);
    release();
    await writing;
    expect(main.writes.filter((w) => w.includes('e0003'))).toHaveLength(1);
    // Answered: the server's word counts again, and it says starred.
    store.getState().mergePolled(query, await main.effects.call('listEmails', query));
    expect(starred()).toBe(true);
    // Unstarred, and the server refused: the star is back, and the next poll is taken as it is.
    main.failing.setFavorite = { kind: 'server', message: 'No.', details: {} };
    await store.getState().toggleFavorite('e0003');
    expect(starred()).toBe(true);
    store.getState().mergePolled(query, await main.effects.call('listEmails', query));
    expect(starred()).toBe(true);
  });

  it('a cancelled list request is neither an outage nor an error on screen', async () => {
    const main = fakeMain({ emails: range(3).map((n) => email(n)) });
    const store = await started(main);
    main.failing.listEmails = { kind: 'cancelled', message: 'Superseded.', details: {} };
    await store.getState().loadList();
    expect(store.getState().outage).toBeNull();
    expect(store.getState().listError).toBeNull();
    expect(rows(store)).toEqual(['e0003', 'e0002', 'e0001']);
  });
});

describe('outages and notices on the clock', () => {
  it('one outage for failures during one wait; the retry runs when the clock says, and recovery clears it', async () => {
    const main = fakeMain({ emails: range(3).map((n) => email(n)) });
    const store = await started(main);
    main.failing.listEmails = { kind: 'network', message: 'The server cannot be reached.', details: {} };
    await store.getState().loadList();
    await store.getState().loadList();
    expect(store.getState().outage?.attempt).toBe(1);
    expect(rows(store)).toEqual(['e0003', 'e0002', 'e0001']);
    const asked = calls(main, 'listEmails').length;
    await main.clock.advance(1999);
    expect(calls(main, 'listEmails').length).toBe(asked);
    delete main.failing.listEmails;
    await main.clock.advance(1);
    expect(calls(main, 'listEmails').length).toBe(asked + 1);
    expect(store.getState().outage).toBeNull();
  });

  it('an email that fails to open in an outage is told once, in the banner, and opens by itself after', async () => {
    const main = fakeMain({ emails: range(3).map((n) => email(n)) });
    const store = await started(main);
    main.failing.openEmail = { kind: 'timeout', message: 'The server took too long.', details: {} };
    await store.getState().openMessage('e0002');
    expect(store.getState().messageError).toBeNull();
    expect(store.getState().outage?.error.kind).toBe('timeout');
    expect(notices(store)).toEqual([]);
    delete main.failing.openEmail;
    await main.clock.advance(2000);
    expect(store.getState().body?.content).toBe('Body of Email 2');
    expect(store.getState().outage).toBeNull();
  });

  it('an info notice leaves after 3 s, an error after 8 s, and the same text is never stacked twice', async () => {
    const main = fakeMain();
    const store = createAppStore(main.effects);
    store.getState().notify('Saved.');
    store.getState().notify('Saved.');
    store.getState().notify({ kind: 'forbidden', message: 'No.', details: {} });
    expect(store.getState().notices.map((n) => [n.tone, n.text])).toEqual([
      ['info', 'Saved.'],
      ['error', 'No.'],
    ]);
    await main.clock.advance(3000);
    expect(notices(store)).toEqual(['No.']);
    await main.clock.advance(5000);
    expect(notices(store)).toEqual([]);
  });
});

describe('printing from the store', () => {
  const printed = (main: FakeMain) => main.log.filter((c) => c.method === 'printEmail').map((c) => c.arg);

  it('prints a text email’s text, and an HTML email’s sanitized HTML with remote content as the user allowed', async () => {
    const main = fakeMain({ emails: [email(1), email(2, { has_html: true })] });
    const store = await started(main);
    await store.getState().openMessage('e0001');
    await store.getState().printEmail(false);
    expect(printed(main)).toEqual([{ id: 'e0001', html: null, text: 'Body of Email 1', remote: false, pdf: false }]);
    expect(notices(store)).toContain('Sent to the printer.');
    await store.getState().openMessage('e0002');
    store.getState().allowRemote();
    await store.getState().printEmail(true);
    expect(printed(main)[1]).toEqual({ id: 'e0002', html: '<p>Body of Email 2</p>', text: null, remote: true, pdf: true });
    expect(notices(store)).toContain('Saved to /home/qa/Downloads/email.pdf');
  });

  it('a clipped body prints as shown, and says so', async () => {
    const main = fakeMain({ emails: [email(1, { has_html: true, size_in_bytes: 2_000_000 })] });
    const store = await started(main);
    await store.getState().openMessage('e0001');
    await store.getState().printEmail(true);
    expect((printed(main)[0] as { html: string }).html).toBe('<p>Body of');
    expect(notices(store)).toContain('Printing the part shown; show the whole message first to print all of it.');
  });
});

describe('nothing undone comes back, nothing failed is hidden (issue 41)', () => {
  it('a DELETE that hangs past the window keeps the email off the screen; when it fails, the email is back with a notice that says so, and Retry deletes again', async () => {
    const main = fakeMain({ emails: range(3).map((n) => email(n)) });
    const store = await started(main);
    const answer = main.hangNextDelete();
    await store.getState().deleteEmail('e0002');
    await main.clock.advance(UNDO_MS + 500);
    await store.getState().loadList({ fresh: true });
    expect(rows(store)).toEqual(['e0003', 'e0001']);
    await main.clock.advance(15_000);
    expect(rows(store)).toEqual(['e0003', 'e0001']);
    answer({ kind: 'timeout', message: 'The server did not answer within 15 s.', details: {} });
    await settle();
    expect(rows(store)).toEqual(['e0003', 'e0002', 'e0001']);
    const notice = store.getState().notices.at(-1)!;
    expect(notice.text).toBe('“Email 2” was not deleted: The server did not answer within 15 s.');
    expect(notice.action?.label).toBe('Retry');
    notice.action!.run();
    await settle();
    expect(rows(store)).toEqual(['e0003', 'e0001']);
    await main.clock.advance(UNDO_MS + 500);
    expect(main.writes).toEqual(['delete e0002']);
    expect(main.emails.map((e) => e.id)).toEqual(['e0001', 'e0003']);
  });

  it('#, z, # on the same email: the first window’s end does not end the second, and z inside it undoes, nothing sent', async () => {
    const main = fakeMain({ emails: range(3).map((n) => email(n)) });
    const store = await started(main);
    await store.getState().deleteEmail('e0002');
    await main.clock.advance(2000);
    await store.getState().undoDelete();
    expect(rows(store)).toContain('e0002');
    await main.clock.advance(2000);
    await store.getState().deleteEmail('e0002');
    // The first delete's window would have closed here.
    await main.clock.advance(UNDO_MS - 2000 + 1000);
    expect(rows(store)).not.toContain('e0002');
    await store.getState().undoDelete();
    expect(notices(store).at(-1)).toBe('Delete undone.');
    expect(rows(store)).toContain('e0002');
    await main.clock.advance(UNDO_MS * 2);
    expect(main.writes).toEqual([]);
  });

  it('delete all, then r inside the undo window: every email stays off the screen', async () => {
    const main = fakeMain({ emails: range(4).map((n) => email(n)) });
    const store = await started(main);
    await store.getState().deleteAll();
    expect(rows(store)).toEqual([]);
    await store.getState().loadList({ fresh: true });
    expect(rows(store)).toEqual([]);
    expect(store.getState().list!.meta.total).toBe(0);
    await store.getState().undoDelete();
    expect(rows(store)).toHaveLength(4);
  });

  it('a delete-all the server refuses: every email is back, and one notice says so with Retry', async () => {
    const main = fakeMain({ emails: range(4).map((n) => email(n)) });
    const store = await started(main);
    const answer = main.hangNextDelete();
    await store.getState().deleteAll();
    await main.clock.advance(UNDO_MS + 500);
    // Still off while the DELETE is on its way, even when the list is asked again.
    await store.getState().loadList({ fresh: true });
    expect(rows(store)).toEqual([]);
    answer({ kind: 'server', message: 'The server hit an error (500).', details: {} });
    await settle();
    await settle();
    expect(rows(store)).toHaveLength(4);
    const notice = store.getState().notices.at(-1)!;
    expect(notice.text).toBe('Deleting every email failed: The server hit an error (500). They are all still there.');
    expect(notice.action?.label).toBe('Retry');
  });

  it('a star stays on when a list asked for before it lands after its write was answered', async () => {
    const main = fakeMain({ emails: range(3).map((n) => email(n)) });
    const store = await started(main);
    const release = main.holdAnswer('listEmails');
    const stale = store.getState().loadList({ fresh: true });
    await settle();
    await store.getState().toggleFavorite('e0002');
    expect(main.writes).toEqual(['star e0002']);
    release();
    await stale;
    expect(store.getState().list!.data.find((e) => e.id === 'e0002')!.favorite).toBe(true);
    // A list asked for after the answer is the server's word, and it says starred too.
    await main.clock.advance(10);
    await store.getState().loadList({ fresh: true });
    expect(store.getState().list!.data.find((e) => e.id === 'e0002')!.favorite).toBe(true);
  });
});
