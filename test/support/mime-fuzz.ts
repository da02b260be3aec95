/**
 * Generated mail for the fuzz test: raw RFC 822 messages with nesting,
 * charsets, broken encodings, hostile and malformed URLs, huge and empty
 * parts, bidi and control characters, and every header malformed in some
 * way. Bytes, not strings: invalid UTF-8 and 8-bit bodies are part of it.
 * Every URL that could be fetched points at `capture` (a server of the
 * test's), so that anything fetched before `i` is seen.
 */
import fc from 'fast-check';

export interface FuzzOptions {
  /** http://127.0.0.1:PORT: where every fetchable URL in the mail points. */
  capture: string;
}

const b64 = (bytes: Buffer | string) => Buffer.from(bytes).toString('base64');

/** Text with the characters mail programs trip over. */
function nastyText(maxLength = 60): fc.Arbitrary<string> {
  return fc
    .array(
      fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom(...'abcdefXYZ 0123456789.,;:-_/'.split('')) },
        { weight: 2, arbitrary: fc.constantFrom('é', 'ü', 'ß', 'İ', 'ı', 'Σ', 'ς', 'ж', '中', '文', '日本', '한', 'ا', 'ש', '😀', '👩‍👩‍👧', '\u0301') },
        { weight: 1, arbitrary: fc.constantFrom('\u202E', '\u202D', '\u2066', '\u200B', '\uFEFF', '\u0000', '\u0007', '\u001B[31m', '\r', '\t', '\u2028', '\uD800', '\uFFFD') },
        { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 2 }) },
        { weight: 1, arbitrary: fc.constantFrom('<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', '{{7*7}}', '${x}', '%s%n', '../../etc/passwd', 'Your code is 482913', 'code: QX6-9NT', 'PIN 4821') },
      ),
      { maxLength },
    )
    .map((parts) => parts.join(''));
}

/** A URL a sender might write: good, odd, malformed or hostile. */
function url(options: FuzzOptions): fc.Arbitrary<string> {
  const { capture } = options;
  return fc.oneof(
    fc.constantFrom(
      'https://[x]/confirm',
      'http://%zz/',
      'https://a b.test/',
      'http://[::1]:99999/',
      'https://user:pass@accounts.example.test/reset',
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'java\tscript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      'file:///etc/passwd',
      '//no-scheme.example.test/x',
      'https://xn--80ak6aa92e.com/login',
      'https://аррӏе.com/login',
      'mailto:?body=%0d%0aBcc:all@example.test',
      'mailto:support@example.test?subject=Hi&cc=x@y.test',
      'cid:image001.png@01D0',
      'cid:',
      '\u202Ehttps://evil.example.test/moc.elgoog',
      'https://example.test/' + 'a'.repeat(5000),
      'https://' + 'sub.'.repeat(60) + 'example.test/',
      'http://2130706433/',
      'http://0x7f.1/',
      '',
      ' ',
      '#',
      '?',
    ),
    fc.constantFrom(`${capture}/pixel.gif`, `${capture}/style.css`, `${capture}/font.woff`, `${capture}/verify?token=abc`, `${capture.replace('http', 'https')}/x`),
    fc.webUrl().map((u) => u.replace(/^(https?:\/\/)[^/?#]*/, `${capture}`)),
    nastyText(20).map((text) => `https://example.test/${text}`),
  );
}

/** HTML pieces: hostile markup, broken markup, links and images that must not load, codes and buttons. */
function htmlPiece(options: FuzzOptions): fc.Arbitrary<string> {
  const u = url(options);
  const text = nastyText(30);
  return fc.oneof(
    fc.tuple(u, text).map(([href, t]) => `<a href="${href}">${t}</a>`),
    u.map((href) => `<a href="${href}"><img src="cid:x"></a>`),
    u.map((href) => `<a href='${href}'>${href}</a>`),
    fc.tuple(u, u).map(([a, b]) => `<img src="${a}" srcset="${b} 2x, ${a} 480w" alt="">`),
    u.map((href) => `<div style="background:url(${href});background-image:image-set('${href}' 1x)">x</div>`),
    u.map((href) => `<style>@import url(${href}); .a{background:url("${href}")} @font-face{font-family:f;src:url(${href})} @media (prefers-color-scheme: dark){body{background:url(${href})}} :root{--u:url(${href})} .b{background:var(--u)}</style>`),
    u.map((href) => `<svg><image href="${href}"/><a href="${href}"><text>svg</text></a></svg>`),
    u.map((href) => `<form action="${href}"><input name=p><button>Go</button></form>`),
    u.map((href) => `<meta http-equiv="refresh" content="0;url=${href}"><base href="${href}"><link rel=stylesheet href="${href}">`),
    u.map((href) => `<iframe src="${href}"></iframe><object data="${href}"></object><embed src="${href}"><video poster="${href}"></video><audio src="${href}"></audio>`),
    u.map((href) => `<table background="${href}"><tr><td background="${href}">cell</td></tr></table>`),
    fc.constantFrom(
      '<p>Your verification code is <b>739204</b></p>',
      '<p>Code: <span>7</span><span>3</span><span>9</span><span>2</span><span>0</span><span>4</span></p>',
      '<p>Use promo code SAVE20 at checkout</p>',
      '<table role="presentation"><tr><td><a href="https://example.test/confirm" style="padding:12px">Confirm your email</a></td></tr></table>',
      '<div style="position:fixed;inset:0;z-index:99999">overlay</div>',
      '<div style="position:sticky;top:0">sticky</div>',
      '<p onclick="alert(1)" onmouseover="alert(2)">handlers</p>',
      '<script>window.__pwned=1</script><noscript><p>no</p></noscript>',
      '<img src=x onerror=alert(1)>',
      '</div></div></table></td><p>stray end tags</body></html>',
      '<div><span><b><i><u><s>unclosed',
      '<table><tr><td><table><tr><td>nested</td></tr></table>',
      '&#0;&#x110000;&#xD800;&eacute;&amp&lt;&nbsp;&unknown;',
      '<!-- <img src=x> --><![CDATA[ <img src=y> ]]>',
      '<math><mi xlink:href="javascript:alert(1)">m</mi></math>',
      '<p dir="rtl">\u202Egnp.exe</p>',
      '<a>no href</a><a href>empty</a>',
      '<template><img src=x></template>',
      '<select><option>x</option></select><textarea>t</textarea>',
      '',
    ),
    fc.nat(60).map((depth) => '<div>'.repeat(depth) + 'deep' + '</div>'.repeat(depth)),
    text.map((t) => `<p>${t}</p>`),
  );
}

function html(options: FuzzOptions): fc.Arbitrary<string> {
  return fc
    .tuple(fc.array(htmlPiece(options), { minLength: 0, maxLength: 12 }), fc.oneof({ weight: 8, arbitrary: fc.constant(1) }, { weight: 1, arbitrary: fc.integer({ min: 50, max: 1500 }) }), fc.boolean())
    .map(([pieces, repeat, wrapped]) => {
      const body = pieces.join('\n').repeat(repeat);
      return wrapped ? `<!doctype html><html><head><title>t</title></head><body>${body}</body></html>` : body;
    });
}

const CHARSETS = ['utf-8', 'UTF-8', 'iso-8859-1', 'windows-1252', 'shift_jis', 'gb2312', 'koi8-r', 'utf-16', 'x-unknown-charset', ''];
const ENCODINGS = ['7bit', '8bit', 'base64', 'quoted-printable', 'binary', 'x-uuencode', 'BASE64', ''];

/** A body's bytes in a transfer encoding, sometimes broken on purpose. */
function encode(content: Buffer, encoding: string, broken: boolean): string {
  switch (encoding.toLowerCase()) {
    case 'base64': {
      const text = b64(content).replace(/.{76}/g, '$&\r\n');
      return broken ? `${text.slice(0, Math.max(0, text.length - 3))}*!%` : text;
    }
    case 'quoted-printable': {
      const text = [...content].map((byte) => (byte >= 33 && byte <= 126 && byte !== 61 ? String.fromCharCode(byte) : `=${byte.toString(16).toUpperCase().padStart(2, '0')}`)).join('');
      return broken ? `${text}=Z=\r\n=` : text.replace(/.{72}/g, '$&=\r\n');
    }
    default:
      return content.toString('latin1');
  }
}

interface Leaf {
  kind: 'leaf';
  type: string;
  charset: string;
  encoding: string;
  broken: boolean;
  content: Buffer;
  name: string | null;
}
interface Multi {
  kind: 'multi';
  subtype: string;
  boundary: 'normal' | 'missing' | 'wrong' | 'unterminated';
  children: Node[];
}
type Node = Leaf | Multi;

function leaf(options: FuzzOptions): fc.Arbitrary<Leaf> {
  const content = fc.oneof(
    html(options).map((text) => ({ type: 'text/html', bytes: Buffer.from(text, 'utf8') })),
    nastyText(400).map((text) => ({ type: 'text/plain', bytes: Buffer.from(text, 'utf8') })),
    fc.uint8Array({ maxLength: 300 }).map((bytes) => ({ type: 'application/octet-stream', bytes: Buffer.from(bytes) })),
    fc.constantFrom('image/png', 'application/pdf', 'message/rfc822', 'text/calendar', 'application/x-evil', 'text/html; charset=', 'nonsense').map((type) => ({ type, bytes: Buffer.from('not really that') })),
    fc.constant({ type: 'text/plain', bytes: Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xe2, 0x82, 0x00, 0x80]) }),
    fc.constant({ type: 'text/plain', bytes: Buffer.alloc(0) }),
  );
  return fc
    .record({
      content,
      charset: fc.constantFrom(...CHARSETS),
      encoding: fc.constantFrom(...ENCODINGS),
      broken: fc.boolean(),
      name: fc.option(fc.oneof(nastyText(30), fc.constantFrom('../../../etc/passwd', 'CON', 'invoice.pdf.exe', 'a\u202Egnp.exe', '=?UTF-8?B?w6k=?=.txt', '')), { nil: null }),
    })
    .map(({ content: c, ...rest }) => ({ kind: 'leaf' as const, type: c.type, content: c.bytes, ...rest }));
}

function tree(options: FuzzOptions): fc.Arbitrary<Node> {
  const { node } = fc.letrec<{ node: Node; multi: Multi }>((tie) => ({
    node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf(options), tie('multi')),
    multi: fc.record({
      kind: fc.constant('multi' as const),
      subtype: fc.constantFrom('mixed', 'alternative', 'related', 'report', 'x-bogus'),
      boundary: fc.constantFrom('normal' as const, 'normal' as const, 'normal' as const, 'missing' as const, 'wrong' as const, 'unterminated' as const),
      children: fc.array(tie('node'), { minLength: 0, maxLength: 4 }),
    }),
  }));
  return node;
}

let boundaryCount = 0;
function render(node: Node, depth = 0): string {
  if (node.kind === 'leaf') {
    const charset = node.charset ? `; charset=${node.charset}` : '';
    const name = node.name === null ? '' : `; name="${node.name}"`;
    const headers = [`Content-Type: ${node.type}${charset}${name}`];
    if (node.encoding) headers.push(`Content-Transfer-Encoding: ${node.encoding}`);
    if (node.name !== null) headers.push(`Content-Disposition: attachment; filename="${node.name}"`);
    return `${headers.join('\r\n')}\r\n\r\n${encode(node.content, node.encoding, node.broken)}`;
  }
  const boundary = `b${depth}_${boundaryCount++}_=_`;
  const declared = node.boundary === 'missing' ? '' : `; boundary="${node.boundary === 'wrong' ? 'not-the-one' : boundary}"`;
  const parts = node.children.map((child) => `--${boundary}\r\n${render(child, depth + 1)}\r\n`).join('');
  const end = node.boundary === 'unterminated' ? '' : `--${boundary}--\r\n`;
  return `Content-Type: multipart/${node.subtype}${declared}\r\n\r\n${parts}${end}`;
}

/** A header value written as RFC 2047 encoded words, correctly or not. */
function headerText(): fc.Arbitrary<string> {
  return fc.oneof(
    nastyText(80),
    nastyText(40).map((t) => `=?UTF-8?B?${b64(t)}?=`),
    nastyText(40).map((t) => `=?utf-8?Q?${t.replace(/[^A-Za-z0-9]/g, (c) => `=${Buffer.from(c).toString('hex').toUpperCase().replace(/(..)/g, '$1=').slice(0, -1)}`)}?=`),
    fc.constantFrom('=?UTF-8?B?not base64!!?=', '=?x-unknown?Q?abc?=', '=?UTF-8?X?abc?=', '=?=?=', '=?UTF-8?B??=', '=?ISO-8859-1?Q?Caf=E9?= =?UTF-8?B?w6k=?=', 'a'.repeat(3000)),
  );
}

function address(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(
      'sender@example.test',
      'Sign-up <signup@myapp.test>',
      '"Last, First" <first.last@example.test>',
      '=?UTF-8?B?w4lUw4k=?= <ete@example.test>',
      '<>',
      'no-at-sign',
      'a@b@c.test',
      'x@[127.0.0.1]',
      'ünï@exämple.test',
      'Group: a@example.test, b@example.test;',
      'undisclosed-recipients:;',
      '"\u202Epaypal" <evil@example.test>',
      '',
    ),
    fc.array(fc.constantFrom('a@example.test', 'B <b@example.test>', 'bad,,', '"q" <q@x.test>'), { maxLength: 60 }).map((list) => list.join(', ')),
  );
}

function headers(): fc.Arbitrary<string[]> {
  return fc
    .record({
      from: fc.option(address(), { nil: undefined }),
      to: fc.option(address(), { nil: undefined }),
      cc: fc.option(address(), { nil: undefined }),
      replyTo: fc.option(address(), { nil: undefined }),
      subject: fc.option(headerText(), { nil: undefined }),
      date: fc.option(fc.constantFrom('Mon, 02 Nov 2026 10:00:00 +0000', 'Thu, 99 Foo 99999 99:99:99 +9999', 'yesterday', '', '2026-11-26T10:00:00Z'), { nil: undefined }),
      messageId: fc.option(fc.constantFrom('<a@b>', '<>', 'no brackets', '<' + 'x'.repeat(2000) + '@y>'), { nil: undefined }),
      extra: fc.array(fc.constantFrom('X-Empty:', 'NoColonHere', ' folded-first-line: x', 'X-Long: ' + 'y'.repeat(5000), 'Subject: a second subject', 'From: second@from.test', 'X-Bidi: \u202Eevil', 'Authentication-Results: mx.test; spf=pass; dkim=fail', 'List-Unsubscribe: <https://example.test/u>, <mailto:u@example.test>'), { maxLength: 4 }),
    })
    .map((h) => [
      ...(h.from !== undefined ? [`From: ${h.from}`] : []),
      ...(h.to !== undefined ? [`To: ${h.to}`] : []),
      ...(h.cc !== undefined ? [`Cc: ${h.cc}`] : []),
      ...(h.replyTo !== undefined ? [`Reply-To: ${h.replyTo}`] : []),
      ...(h.subject !== undefined ? [`Subject: ${h.subject}`] : []),
      ...(h.date !== undefined ? [`Date: ${h.date}`] : []),
      ...(h.messageId !== undefined ? [`Message-ID: ${h.messageId}`] : []),
      'MIME-Version: 1.0',
      ...h.extra,
    ]);
}

/** One generated message; `marker` goes into its subject so the test can find its row. */
export function fuzzMessages(options: FuzzOptions, count: number, seed: number): Buffer[] {
  const message = fc.tuple(headers(), tree(options));
  return fc.sample(message, { numRuns: count, seed }).map(([head, body], index) => {
    // The test knows each message by this header: whatever the subject became, the row is found.
    const lines = [`X-Fuzz-Case: ${seed}-${index}`, ...head];
    // Headers as UTF-8 (SMTPUTF8 mail has them so), the body as the bytes its encoding made.
    return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8'), Buffer.from(render(body), 'latin1')]);
  });
}
