// folded: `convert -t folded` gives one line "FRAME;FRAME;... WEIGHT" per
// stack; in ns the weights add up to the net total of `stats`
// (docs/formats/folded.md), and every stack starts with the process and
// the thread.
import path from 'node:path';
import { conversionProblems, readText, readStats, big } from './lib.mjs';

export async function checkFolded(item, problems) {
    const { dir } = item;
    if (!conversionProblems(dir, 'folded', problems)) return;
    const text = readText(path.join(dir, 'stacks.folded'));
    if (text === null) { problems.push('no output'); return; }
    let sum = 0n, n = 0;
    for (const [i, line] of text.split('\n').entries()) {
        if (!line) continue;
        const m = /^(.*) (\d+)$/.exec(line);
        if (!m) { problems.push(`line ${i + 1} is not "STACK WEIGHT": ${JSON.stringify(line.slice(0, 80))}`); continue; }
        if (m[1].split(';').length < 3) problems.push(`line ${i + 1}: the stack has no process;thread;scope frames`);
        sum += BigInt(m[2]);
        n++;
    }
    const stats = readStats(path.join(dir, 'stats.json'));
    const net = stats.scopes.reduce((a, s) => a + big(s.net.total), 0n);
    if (sum !== net) problems.push(`weights add up to ${sum} ns over ${n} stacks, stats net total ${net} ns`);
}
