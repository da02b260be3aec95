/**
 * A tiny app of the kind our users test (not shipped): a sign-up form that
 * mails a six-digit code with nodemailer, and a form that takes it back. The
 * README's examples run against it, as they would against the user's own app.
 */
import { randomInt } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import nodemailer from 'nodemailer';

export interface SampleApp {
  url: string;
  /** The codes it mailed, by address: what a test must end up typing. */
  codes: Map<string, string>;
  close(): Promise<void>;
}

const page = (body: string) => `<!doctype html><html><head><meta charset="utf-8"><title>My App</title></head><body>${body}</body></html>`;
const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export async function startSampleApp(smtpPort: number): Promise<SampleApp> {
  const mail = nodemailer.createTransport({ host: '127.0.0.1', port: smtpPort, secure: false, ignoreTLS: true });
  const codes = new Map<string, string>();
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const form = new URLSearchParams(body);
      const send = (html: string, status = 200) => response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(page(html));
      if (request.method === 'GET' && request.url === '/sign-up') {
        return send('<form method="post" action="/sign-up"><label>Email <input name="email" type="email"></label><button>Sign up</button></form>');
      }
      if (request.method === 'POST' && request.url === '/sign-up') {
        const email = form.get('email') ?? '';
        const code = String(randomInt(100000, 1000000));
        codes.set(email, code);
        void mail
          .sendMail({
            from: '"My App" <no-reply@myapp.test>',
            to: email,
            subject: 'Confirm your email for My App',
            text: `Welcome to My App!\n\nYour verification code is ${code}.\n\nIt expires in 10 minutes.`,
            html: `<p>Welcome to My App!</p><p>Your verification code is:</p><p style="font-size:28px"><b>${code}</b></p><p>It expires in 10 minutes.</p>`,
          })
          .then(
            () =>
              send(
                `<p>We sent a code to ${escape(email)}.</p><form method="post" action="/confirm"><input type="hidden" name="email" value="${escape(email)}"><label>Code <input name="code"></label><button>Confirm</button></form>`,
              ),
            (error: Error) => send(`<p>Could not send: ${escape(error.message)}</p>`, 500),
          );
        return;
      }
      if (request.method === 'POST' && request.url === '/confirm') {
        const email = form.get('email') ?? '';
        if (codes.get(email) === form.get('code')) return send(`<h1>Welcome, ${escape(email)}</h1>`);
        return send('<p>That code is not right.</p>', 400);
      }
      send('<p>Not found</p>', 404);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    codes,
    async close() {
      mail.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
