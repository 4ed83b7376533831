import fs from 'node:fs';

/**
 * `node bench/profileTop.ts FILE.cpuprofile [N]`: where a CPU profile's time went, as Markdown: self
 * time by package (node_modules/NAME, node: internals, the app's own folders, GC, idle) and the N
 * functions with the most self time.
 */
interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
const [file, top = '20'] = process.argv.slice(2);
const profile = JSON.parse(fs.readFileSync(file!, 'utf8')) as {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
};
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<number, number>();
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));

function area(url: string, name: string): string {
  if (!url) return name.startsWith('(') ? name : '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return url.split('/')[0]!.replace(/:.*/, ':') + url.slice(5).split('/')[0];
  const own = /\/(api|db|events|projections|contract|bench)\//.exec(url);
  return own ? `${own[1]}/` : url;
}

const areas = new Map<string, number>();
const functions = new Map<string, number>();
let total = 0;
let idle = 0;
for (const [id, us] of self) {
  const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
  const name = functionName || '(anonymous)';
  if (name === '(idle)') {
    idle += us;
    continue;
  }
  total += us;
  const a = area(url, name);
  areas.set(a, (areas.get(a) ?? 0) + us);
  const where = url
    ? `${url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(api|db|events|projections)\//, '$1/')}:${lineNumber + 1}`
    : '';
  const key = `${name} ${where}`.trim();
  functions.set(key, (functions.get(key) ?? 0) + us);
}
const ms = (us: number) => (us / 1000).toFixed(0);
const pct = (us: number) => ((us / total) * 100).toFixed(1);
console.log(`Busy ${ms(total)} ms (idle ${ms(idle)} ms)\n`);
console.log('| area | self ms | share |\n|---|---:|---:|');
for (const [a, us] of [...areas].sort((x, y) => y[1] - x[1]).slice(0, 15))
  console.log(`| ${a} | ${ms(us)} | ${pct(us)} % |`);
console.log('\n| function | self ms | share |\n|---|---:|---:|');
for (const [f, us] of [...functions].sort((x, y) => y[1] - x[1]).slice(0, Number(top))) {
  console.log(`| \`${f.replace(/\|/g, '\\|')}\` | ${ms(us)} | ${pct(us)} % |`);
}
