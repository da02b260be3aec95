/**
 * What the MCP tools read mail through: the API document's routes of one team
 * (/api/teams/{team}/…), on This computer, `npm run catch` or any server of
 * that kind with a token. Where the server is a catcher of ours, a wait is
 * held by the server and the code comes from its finder; elsewhere the wait
 * polls every 2 s and the same finder runs here, on the body the server sends.
 */
import { BODY_FORMATS } from '../../shared/domain/body-format.ts';
import { insightsOf } from '../../shared/domain/mail-insights.ts';
import { toApiInsights, type ApiInsights } from '../catcher-api/insights.ts';

/** One HTTP exchange: fetch over the network, or the service's own inject in process. */
export type Exchange = (request: { method: 'GET' | 'DELETE'; path: string; accept?: string }) => Promise<{ status: number; type: string; body: string }>;

export interface MailSummary {
  id: string;
  subject: string;
  from: string;
  to: string;
  received: string;
  read: boolean;
  attachments: number;
}

export interface WaitFilters {
  to?: string;
  from?: string;
  subject?: string;
}

export class SourceError extends Error {}

interface SeedEmail {
  id: string;
  subject: string;
  sender: { email: string; display_name: string };
  inbox: { email: string };
  created_at: string;
  read: string | null;
  has_html: boolean;
  has_text: boolean;
  attachments: unknown[];
}

const summaryOf = (email: SeedEmail): MailSummary => ({
  id: email.id,
  subject: email.subject,
  from: email.sender.display_name && email.sender.display_name !== email.sender.email ? `${email.sender.display_name} <${email.sender.email}>` : email.sender.email,
  to: email.inbox.email,
  received: email.created_at,
  read: email.read !== null,
  attachments: email.attachments.length,
});

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

export class MailSource {
  private readonly exchange: Exchange;
  /** The team's path, `/api/teams/{team}`. */
  private readonly base: string;

  constructor(exchange: Exchange, base: string) {
    this.exchange = exchange;
    this.base = base.replace(/\/+$/, '');
  }

  private async json<T>(path: string, what: string): Promise<{ status: number; value: T | null; cursor?: string }> {
    const answer = await this.exchange({ method: 'GET', path: `${this.base}${path}`, accept: 'application/json' });
    if (answer.status === 401 || answer.status === 403) throw new SourceError(`The server refused the token (${answer.status}) while ${what}.`);
    if (answer.status >= 500) throw new SourceError(`The server failed (${answer.status}) while ${what}.`);
    let value: T | null;
    try {
      value = answer.body ? (JSON.parse(answer.body) as T) : null;
    } catch {
      throw new SourceError(`The server's answer was not JSON while ${what}.`);
    }
    return { status: answer.status, value };
  }

  /** The newest emails, filtered the way the list filters (an address it has never seen: none). */
  async list(filters: WaitFilters & { search?: string; limit?: number } = {}): Promise<MailSummary[]> {
    const query = new URLSearchParams();
    if (filters.to) query.set('inbox', filters.to);
    if (filters.from) query.set('sender', filters.from);
    if (filters.subject) query.set('subject', filters.subject);
    if (filters.search) query.set('search', filters.search);
    query.set('limit', String(Math.min(100, Math.max(1, filters.limit ?? 20))));
    const { status, value } = await this.json<{ data: SeedEmail[] }>(`/emails?${query}`, 'listing emails');
    if (status === 404) return [];
    if (status !== 200 || !value) throw new SourceError(`The server answered ${status} to the list.`);
    return value.data.map(summaryOf);
  }

  async email(id: string): Promise<SeedEmail> {
    const { status, value } = await this.json<{ data: SeedEmail }>(`/emails/${encodeURIComponent(id)}`, 'reading the email');
    if (status === 404 || !value) throw new SourceError(`No email ${id} on this server.`);
    return value.data;
  }

  async body(id: string, format: 'html' | 'text' | 'raw'): Promise<string> {
    const accept = BODY_FORMATS[format];
    const answer = await this.exchange({ method: 'GET', path: `${this.base}/emails/${encodeURIComponent(id)}`, accept });
    return answer.status === 200 ? answer.body : '';
  }

  /** The code and the main link: the server's finder where it has one, else the same finder here. */
  async insights(id: string): Promise<ApiInsights> {
    const { status, value } = await this.json<{ data: ApiInsights }>(`/emails/${encodeURIComponent(id)}/insights`, 'reading the code');
    if (status === 200 && value) return value.data;
    const email = await this.email(id);
    const body = email.has_html ? { format: 'html' as const, content: await this.body(id, 'html') } : { format: 'text' as const, content: await this.body(id, 'text') };
    return toApiInsights(insightsOf(email.subject, body));
  }

  /** The latest email to an address (or of all), or null. */
  async latest(filters: WaitFilters = {}): Promise<MailSummary | null> {
    return (await this.list({ ...filters, limit: 1 }))[0] ?? null;
  }

  /**
   * The first email matching that arrives after `after` (a cursor), or after
   * this call when none is given; null when `timeoutSeconds` pass.
   */
  async wait(filters: WaitFilters, timeoutSeconds: number, after?: string, signal?: AbortSignal): Promise<{ email: MailSummary; cursor: string } | null> {
    const query = new URLSearchParams({ timeout: String(timeoutSeconds) });
    if (filters.to) query.set('inbox', filters.to);
    if (filters.from) query.set('sender', filters.from);
    if (filters.subject) query.set('subject', filters.subject);
    if (after) query.set('after', after);
    const answer = await this.exchange({ method: 'GET', path: `${this.base}/emails/wait?${query}`, accept: 'application/json' });
    if (answer.status === 200) {
      const value = JSON.parse(answer.body) as { data: SeedEmail; cursor: string };
      return { email: summaryOf(value.data), cursor: value.cursor };
    }
    if (answer.status === 504) return null;
    if (answer.status === 400 || answer.status === 429) throw new SourceError((JSON.parse(answer.body) as { message: string }).message);
    if (answer.status !== 404) throw new SourceError(`The server answered ${answer.status} to the wait.`);
    // A server with no wait of its own: what it holds now is the baseline, then every 2 s until the deadline.
    const seen = new Set((await this.list({ ...filters, limit: 100 })).map((e) => e.id));
    const deadline = Date.now() + timeoutSeconds * 1000;
    while (Date.now() < deadline && !signal?.aborted) {
      await sleep(Math.min(2000, Math.max(0, deadline - Date.now())), signal);
      const fresh = (await this.list({ ...filters, limit: 100 })).filter((e) => !seen.has(e.id));
      if (fresh.length > 0) return { email: fresh.at(-1)!, cursor: '' };
    }
    return null;
  }

  async delete(id: string | null): Promise<number> {
    const path = id === null ? `${this.base}/emails` : `${this.base}/emails/${encodeURIComponent(id)}`;
    const answer = await this.exchange({ method: 'DELETE', path });
    if (answer.status === 404) throw new SourceError(id === null ? 'This server does not delete all its mail at once.' : `No email ${id} on this server.`);
    if (answer.status >= 300) throw new SourceError(`The server answered ${answer.status} to the delete.`);
    if (id !== null) return 1;
    return (JSON.parse(answer.body || '{}') as { deleted?: number }).deleted ?? 0;
  }
}
