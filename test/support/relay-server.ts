import { SMTPServer } from 'smtp-server';

export interface Relayed {
  from: string;
  to: string[];
  user: string | null;
  secure: boolean;
  bytes: Buffer;
}

/** A relay as a mail provider runs one: STARTTLS, a login, and its own answer to each step. */
export async function relayServer(options: { cert?: { cert: string; key: string }; refuseRcpt?: boolean; silent?: boolean } = {}) {
  const received: Relayed[] = [];
  const server = new SMTPServer({
    ...(options.cert ? { key: options.cert.key, cert: options.cert.cert } : { disabledCommands: ['STARTTLS'] }),
    authOptional: true,
    allowInsecureAuth: !options.cert,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === 'relay-user' && auth.password === 'relay-secret') return callback(null, { user: auth.username });
      callback(new Error('Invalid login'));
    },
    onConnect(_session, callback) {
      // A relay that never answers: the greeting never comes.
      if (options.silent) return;
      callback();
    },
    onRcptTo(_address, _session, callback) {
      if (options.refuseRcpt) return callback(Object.assign(new Error('5.7.1 Relaying denied for this sender'), { responseCode: 550 }));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          user: (session.user as string | undefined) ?? null,
          secure: session.secure,
          bytes: Buffer.concat(chunks),
        });
        callback(null, 'OK queued as relay-1');
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return { port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
