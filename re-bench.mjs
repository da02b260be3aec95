import { RE2JS } from 're2js';
for (const len of [1000, 2000]) {
const subj = 'a'.repeat(len) + 'b';
for (const p of ['(a|aa){166}', '[a-z]{990}x', '[a-z]{300}x', '(?:a*b*c*d*e*f*g*h*){100}', '(\\w+\\s?){100}x', '.{999}x', '(.*a){60}x']) {
  let re; try { re = RE2JS.compile(p, RE2JS.CASE_INSENSITIVE);} catch(e) { console.log(p, 'ERR', e.message); continue; }
  const t = performance.now(); for (let i=0;i<3;i++) re.matcher(subj).find();
  console.log(len, p, 'size', re.programSize(), 'ms/match', ((performance.now()-t)/3).toFixed(2));
}}
