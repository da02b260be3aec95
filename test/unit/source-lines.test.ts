import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tagSourceLines } from '../../src/shared/domain/source-lines.ts';

/** Each tagged start tag's name and line, in order: what the test reads back. */
const tagged = (html: string) => [...tagSourceLines(html).matchAll(/<([A-Za-z][^\s/>]*) data-source-line="(\d+)"/g)].map((m) => `${m[1]}:${m[2]}`);

describe('the line each element of an email came from', () => {
  it('tags every start tag with its line, counted by hand', () => {
    const html = [
      '<!doctype html>', // 1
      '<html lang="en">', // 2
      '<head><style>td > a { color: red } /* <b> */</style>', // 3
      '<!-- <img src="x"> a comment', // 4
      '  that ends here --></head>', // 5
      '<body><table role="presentation"><tr>', // 6
      '<td title="a > b"><img', // 7
      '  src="cid:logo" alt="">', // 8
      "<a href='x'>click here</a></td></tr></table>", // 9
      '<p>1 < 2 and <3</p><script>if (a<b) x("<p>")</script>', // 10
      '<textarea><i>raw</i></TEXTAREA><h1>Title</h1>', // 11
    ].join('\r\n');
    expect(tagged(html)).toEqual([
      'html:2', 'head:3', 'style:3', 'body:6', 'table:6', 'tr:6', 'td:7', 'img:7', 'a:9', 'p:10', 'script:10', 'textarea:11', 'h1:11',
    ]);
  });

  it('adds the attribute and nothing else: taking it out gives the source back, whatever the source', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('<', '>', '/', '!', '-', '"', "'", '=', ' ', '\n', 'a', 'p', 'style', 'script', 'x') }), (html) => {
        const out = tagSourceLines(html);
        expect(out.replace(/ data-source-line="\d+"/g, '')).toBe(html);
      }),
      { numRuns: 2000 },
    );
  });
});
