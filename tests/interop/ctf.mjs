// ctf: the CTF 1.8 trace directory of `convert -t ctf`, read by babeltrace2
// (run.sh runs `babeltrace2 --clock-seconds --no-delta DIR` and keeps what
// it prints). Every event of the jsonl stream must come out once, as an
// event of the class named after its kind (begin, end, instant, suspend,
// resume, counter, meta) with pid, tid and name fields, at its time: the
// (kind, name, pid, tid, time) tuples are compared as multisets, the times
// after one constant shift (the writer may put the trace on the wall clock
// through the clock's offset). Where the conversion said it clamped or
// adjusted times, only kinds, names and ids are compared.
import path from 'node:path';
import fs from 'node:fs';
import { conversionProblems, readText, readJsonl, exitOf, TIMES_MOVED } from './lib.mjs';

const ESC = { '\\': '\\', "'": "'", '"': '"', '?': '?', 0: '\0', a: '\x07', b: '\b', e: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };

// one line of sink.text.pretty: [SEC.NSEC] [host fields ]CLASS: {..}, {..}
// Strings are kept as latin1 (one char per byte) so that names that are not
// UTF-8 compare byte for byte.
export function parsePrettyLine(line) {
    const m = /^\[(-?)(\d+)\.(\d{9})\] /.exec(line);
    if (!m) return null;
    const ns = (BigInt(m[2]) * 1000000000n + BigInt(m[3])) * (m[1] ? -1n : 1n);
    let rest = line.slice(m[0].length);
    const colon = rest.search(/: (?=\{|$)|:$/);
    if (colon < 0) throw new Error(`no event class name in ${JSON.stringify(line.slice(0, 80))}`);
    const cls = rest.slice(0, colon).split(' ').pop();
    rest = rest.slice(colon + 1);
    const fields = {};
    let i = 0;
    const peek = (s) => rest.startsWith(s, i);
    const expect = (s) => {
        if (!peek(s)) throw new Error(`expected ${JSON.stringify(s)} at ${i} in ${JSON.stringify(rest.slice(Math.max(0, i - 20), i + 20))}`);
        i += s.length;
    };
    function str() {
        expect('"');
        let s = '';
        while (i < rest.length && rest[i] !== '"') {
            if (rest[i] === '\\') {
                const c = rest[i + 1];
                if (c === 'x') { s += String.fromCharCode(parseInt(rest.slice(i + 2, i + 4), 16)); i += 4; continue; }
                if (!(c in ESC)) throw new Error(`unknown escape \\${c}`);
                s += ESC[c];
                i += 2;
                continue;
            }
            s += rest[i++];
        }
        expect('"');
        return s;
    }
    function val() {
        if (peek('"')) return str();
        if (peek('{')) return struct();
        if (peek('[')) {
            i++;
            const a = [];
            while (!peek(' ]')) {
                expect(a.length ? ', ' : ' ');
                const n = /^\[\d+\] = /.exec(rest.slice(i));
                if (n) i += n[0].length;
                a.push(val());
            }
            i += 2;
            return a;
        }
        if (peek('( ')) {
            const end = rest.indexOf(' )', i);
            const body = rest.slice(i + 2, end);
            i = end + 2;
            const c = /container = (\S+)$/.exec(body);
            return c ? c[1] : body;
        }
        const t = /^[^,\s\]}]+/.exec(rest.slice(i));
        if (!t) throw new Error(`no value at ${i} in ${JSON.stringify(rest.slice(i, i + 30))}`);
        i += t[0].length;
        return t[0];
    }
    function struct() {
        expect('{');
        const o = {};
        let n = 0;
        while (!peek(' }') && !peek('}')) {
            expect(n ? ', ' : ' ');
            const k = /^([A-Za-z_][A-Za-z0-9_]*) = /.exec(rest.slice(i));
            if (k) {
                i += k[0].length;
                o[k[1]] = val();
                fields[k[1]] = o[k[1]];
            } else o[`#${n}`] = val();
            n++;
        }
        if (peek(' }')) i += 2;
        else i += 1;
        return o;
    }
    while (i < rest.length) {
        expect(' ');
        struct();
        if (i < rest.length) expect(',');
    }
    return { ns, cls, fields };
}

// the name as the writer stores it (UTF-8; the jsonl stream already has
// U+FFFD for each byte that is not UTF-8, a NUL becomes U+FFFD too), one
// char per byte as babeltrace2's output is read
const latin1 = (e) => Buffer.from(e.name.replace(/\0/g, '\uFFFD'), 'utf8').toString('latin1');

export async function checkCtf(item, problems, notes) {
    const { dir } = item;
    if (!conversionProblems(dir, 'ctf', problems)) return;
    const out = path.join(dir, 'ctf');
    if (!fs.existsSync(path.join(out, 'metadata'))) { problems.push('no CTF trace: DIR/metadata is missing'); return; }
    const bt = exitOf(dir, 'babeltrace2');
    const btErr = (readText(path.join(dir, 'babeltrace2.err')) || '').trim();
    if (bt !== 0) {
        // its log lines: DATE TIME PID TID LEVEL COMPONENT MESSAGE; the first
        // errors are the cause, the later ones the way back up
        const errs = btErr.split('\n').filter((l) => / E [A-Z]/.test(l)).map((l) => l.replace(/^.*? E /, ''));
        problems.push(`babeltrace2 exited ${bt}: ${errs.slice(0, 2).join(' | ') || btErr.slice(-300)}`);
        return;
    }
    const text = fs.readFileSync(path.join(dir, 'babeltrace2.out')).toString('latin1');
    const got = [];
    for (const line of text.split('\n')) {
        if (!line) continue;
        let ev;
        try { ev = parsePrettyLine(line); } catch (e) { problems.push(`cannot read babeltrace2's line: ${e.message}`); return; }
        if (!ev) { problems.push(`babeltrace2 printed ${JSON.stringify(line.slice(0, 100))}`); continue; }
        got.push(ev);
    }
    if (/warn/i.test(btErr)) notes.push(`babeltrace2 warned: ${btErr.split('\n').slice(0, 2).join(' | ')}`);
    const { trace, events } = readJsonl(path.join(dir, 'in.jsonl'));
    const convErr = readText(path.join(dir, 'ctf.err')) || '';
    const timesExact = !TIMES_MOVED.test(convErr);
    if (!timesExact) notes.push('the conversion moved times forward: kinds, names and ids compared, not times');

    if (got.length !== events.length)
        problems.push(`babeltrace2 printed ${got.length} events, the input has ${events.length}`);
    const missing = [];
    for (const [i, g] of got.entries()) {
        for (const f of ['pid', 'tid', 'name'])
            if (g.fields[f] === undefined) missing.push(`event ${i} (${g.cls}) has no field ${f}`);
    }
    if (missing.length) { problems.push(...missing.slice(0, 3)); return; }

    // kind/name/pid/tid multisets, then times within each
    const key = (kind, name, pid, tid) => `${kind}\t${name}\t${pid}\t${tid}`;
    const want = new Map(), have = new Map();
    for (const e of events) {
        const k = key(e.kind, latin1(e), e.pid, e.tid);
        if (!want.has(k)) want.set(k, []);
        want.get(k).push(e.ts);
    }
    for (const g of got) {
        const k = key(g.cls, g.fields.name, g.fields.pid, g.fields.tid);
        if (!have.has(k)) have.set(k, []);
        have.get(k).push(g.ns);
    }
    const show = (k) => {
        const [kind, name, pid, tid] = k.split('\t');
        return `${kind} ${JSON.stringify(Buffer.from(name, 'latin1').toString('utf8'))} on ${pid}/${tid}`;
    };
    for (const [k, w] of want) {
        const h = have.get(k) || [];
        if (h.length !== w.length) problems.push(`${show(k)}: ${h.length} events in babeltrace2, expected ${w.length}`);
    }
    for (const [k, h] of have) if (!want.has(k)) problems.push(`${show(k)}: ${h.length} events in babeltrace2 that the input does not have`);
    if (problems.length || !timesExact || !events.length) return;

    // one shift for the whole trace: the first event's
    const sortBig = (a) => a.sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
    const allWant = sortBig(events.map((e) => e.ts)), allGot = sortBig(got.map((g) => g.ns));
    const shift = allGot[0] - allWant[0];
    const origin = trace && trace.origin_ns !== undefined ? BigInt(trace.origin_ns) - BigInt(trace.origin_ts) : null;
    if (shift !== 0n && shift !== origin)
        notes.push(`babeltrace2's times are the input's plus ${shift} ns (neither 0 nor the wall-clock origin ${origin ?? 'none'})`);
    let bad = 0;
    for (const [k, w] of want) {
        const h = sortBig(have.get(k).slice());
        const ws = sortBig(w.map((t) => t + shift));
        for (let i = 0; i < ws.length; i++) {
            if (h[i] !== ws[i]) {
                if (bad++ < 4) problems.push(`${show(k)}: an event at ${h[i] - shift} ns (babeltrace2 ${fmtS(h[i])}), expected ${ws[i] - shift} ns`);
                break;
            }
        }
    }
}

function fmtS(ns) {
    const neg = ns < 0n, a = neg ? -ns : ns;
    return `${neg ? '-' : ''}${a / 1000000000n}.${String(a % 1000000000n).padStart(9, '0')}`;
}
