/**
 * The finder judged on the hand-labelled corpus, as the app meets each email:
 * written as mail in its charset (corpus-mime.ts), taken in by the reference
 * service, read back by main's own client in the format the reader shows
 * first, and the code and link found by the same insightsOf the reader and
 * the tester's loop call. Precision: of the codes shown, how many are right;
 * recall: of the emails that have one, in how many it was found.
 */
import { ServiceClient } from '../../src/main/api/client.ts';
import { startReferenceService } from '../../src/server/index.ts';
import { preferredFormat, type EmailBody } from '../../src/shared/domain/email.ts';
import { insightsOf } from '../../src/shared/domain/mail-insights.ts';
import type { CorpusMail } from '../fixtures/finder-corpus/layout.ts';
import { CORPUS, corpusMessage } from './corpus-mime.ts';

export interface ReadMail {
  mail: CorpusMail;
  /** The subject as the service decoded it. */
  subject: string;
  body: EmailBody;
}

/** Every corpus email through the reference service and main's client. */
export async function readCorpus(mails: CorpusMail[] = CORPUS): Promise<ReadMail[]> {
  const service = await startReferenceService({ teams: [{ id: 'corpus', token: 'corpus-token' }] });
  try {
    const client = new ServiceClient({ baseUrl: service.baseUrl, teamId: 'corpus', token: 'corpus-token' }, { maxRetries: 0 });
    const read: ReadMail[] = [];
    for (const [index, mail] of mails.entries()) {
      const [id] = await service.inject(corpusMessage(mail, index));
      const email = await client.getEmail(id!);
      read.push({ mail, subject: email.subject, body: await client.readerBody(id!, preferredFormat(email)) });
    }
    return read;
  } finally {
    await service.close();
  }
}

export interface Score {
  /** Emails labelled with one. */
  labelled: number;
  /** Answers shown. */
  shown: number;
  /** Answers shown that are the label. */
  right: number;
  precision: number;
  recall: number;
  wrong: { id: string; shown: string; label: string | null }[];
  missed: { id: string; label: string }[];
}

function score(pairs: { id: string; found: string | null; label: string | null }[]): Score {
  const wrong = pairs.filter((p) => p.found !== null && p.found !== p.label).map((p) => ({ id: p.id, shown: p.found!, label: p.label }));
  const missed = pairs.filter((p) => p.label !== null && p.found !== p.label).map((p) => ({ id: p.id, label: p.label! }));
  const labelled = pairs.filter((p) => p.label !== null).length;
  const shown = pairs.filter((p) => p.found !== null).length;
  const right = pairs.filter((p) => p.found !== null && p.found === p.label).length;
  return { labelled, shown, right, precision: shown === 0 ? 1 : right / shown, recall: labelled === 0 ? 1 : right / labelled, wrong, missed };
}

/** The finder's answers on read mail, and its figures for codes and for links. */
export function judge(read: ReadMail[]) {
  const answers = read.map(({ mail, subject, body }) => ({ mail, found: insightsOf(subject, body) }));
  return {
    answers,
    code: score(answers.map(({ mail, found }) => ({ id: mail.id, found: found.code?.code ?? null, label: mail.code }))),
    link: score(answers.map(({ mail, found }) => ({ id: mail.id, found: found.link?.url ?? null, label: mail.link }))),
  };
}
