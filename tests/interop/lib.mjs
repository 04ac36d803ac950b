// Shared by the interop checks: the manifest the driver writes, the
// expectations tracewright gives (its jsonl stream and its stats report),
// JSON with 64-bit integers, and the result lines the driver counts.
import fs from 'node:fs';
import path from 'node:path';

// ---- results: one line per check, counted by run.sh -------------------
// PASS LABEL                 a check passed
// FAIL LABEL: DETAIL         a check failed (one line; details joined by '; ')
// NOTE LABEL: DETAIL         information, not counted
export const passLine = (label) => `PASS ${label}`;
export function failLine(label, details) {
    const list = (Array.isArray(details) ? details : [details]).map(oneLine);
    const shown = list.slice(0, 6);
    if (list.length > shown.length) shown.push(`... ${list.length - shown.length} more`);
    return `FAIL ${label}: ${shown.join('; ')}`;
}
export const noteLine = (label, detail) => `NOTE ${label}: ${oneLine(detail)}`;
export function fail(label, details) { process.stdout.write(failLine(label, details) + '\n'); }
export function note(label, detail) { process.stdout.write(noteLine(label, detail) + '\n'); }
export function oneLine(s) {
    s = String(s).replace(/\s*\n\s*/g, ' | ');
    return s.length > 400 ? s.slice(0, 397) + '...' : s;
}

// runs one check: FN(problems, notes) fills the lists; an exception is a
// failure of that check, not of the run.  Returns the result lines.
export async function runCheck(label, fn) {
    const notes = [], problems = [];
    try {
        await fn(problems, notes);
    } catch (e) {
        problems.push(e && e.stack ? e.stack.split('\n').slice(0, 3).join(' ') : String(e));
    }
    return [...notes.map((n) => noteLine(label, n)), problems.length ? failLine(label, problems) : passLine(label)];
}

export async function check(label, fn) {
    process.stdout.write((await runCheck(label, fn)).join('\n') + '\n');
}

// runs the thunks JOBS, at most N at a time; prints their lines in order
export async function runPool(jobs, n) {
    const results = new Array(jobs.length);
    let next = 0, printed = 0;
    const flush = () => {
        while (printed < jobs.length && results[printed]) {
            process.stdout.write(results[printed].join('\n') + '\n');
            printed++;
        }
    };
    async function worker() {
        while (next < jobs.length) {
            const i = next++;
            results[i] = await jobs[i]();
            flush();
        }
    }
    await Promise.all(Array.from({ length: Math.min(n, jobs.length) }, worker));
    flush();
}

// ---- the manifest ---------------------------------------------------------
// one input per line: LABEL <TAB> WORK_DIR; WORK_DIR holds what run.sh made:
//   in.jsonl (+ .exit), stats.json (--by thread), scopes.json (per scope),
//   W.out / W.err / W.exit for each writer W (see run.sh)
export function readManifest(file) {
    return fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => {
        const [label, dir] = l.split('\t');
        return { label, dir };
    });
}

export function readText(file) {
    try { return fs.readFileSync(file, 'utf8'); } catch { return null; }
}

export function exitOf(dir, what) {
    const t = readText(path.join(dir, `${what}.exit`));
    return t === null ? null : Number(t.trim());
}

// a conversion must succeed as the jsonl conversion of the same input did
// (a status of 1 means the input itself had errors, then both give 1)
export function conversionProblems(dir, what, problems) {
    const want = exitOf(dir, 'jsonl'), got = exitOf(dir, what);
    if (got === null) { problems.push(`${what} was not run`); return false; }
    if (got !== want) {
        const err = (readText(path.join(dir, `${what}.err`)) || '').trim().split('\n').slice(-2).join(' | ');
        problems.push(`tracewright convert exited ${got} (jsonl: ${want})${err ? ': ' + err : ''}`);
        return false;
    }
    return true;
}

// the conversion moved or clamped times (a thread's time that went back is
// written at its latest time): then times cannot be compared, only counts
export const TIMES_MOVED = /times moved forward|clamp|adjusted/i;

// ---- JSON with integers beyond 2^53 kept exact (as BigInt) -----------------
export function parseJSONBig(text) {
    let i = 0;
    const ws = () => { while (i < text.length && ' \t\r\n'.includes(text[i])) i++; };
    const err = (m) => { throw new SyntaxError(`${m} at offset ${i}`); };
    function value() {
        ws();
        const c = text[i];
        if (c === '{') {
            i++;
            const o = {};
            ws();
            if (text[i] === '}') { i++; return o; }
            for (;;) {
                ws();
                if (text[i] !== '"') err('expected a key');
                const k = string();
                ws();
                if (text[i++] !== ':') err("expected ':'");
                o[k] = value();
                ws();
                if (text[i] === ',') { i++; continue; }
                if (text[i] === '}') { i++; return o; }
                err("expected ',' or '}'");
            }
        }
        if (c === '[') {
            i++;
            const a = [];
            ws();
            if (text[i] === ']') { i++; return a; }
            for (;;) {
                a.push(value());
                ws();
                if (text[i] === ',') { i++; continue; }
                if (text[i] === ']') { i++; return a; }
                err("expected ',' or ']'");
            }
        }
        if (c === '"') return string();
        const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
        if (m) {
            i += m[0].length;
            if (m[2] || m[3]) return Number(m[0]);
            const n = Number(m[0]);
            return Number.isSafeInteger(n) ? n : BigInt(m[0]);
        }
        for (const [w, v] of [['true', true], ['false', false], ['null', null]])
            if (text.startsWith(w, i)) { i += w.length; return v; }
        return err('unexpected character');
    }
    function string() {
        let j = i + 1;
        while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
        if (j >= text.length) err('unterminated string');
        const s = JSON.parse(text.slice(i, j + 1));
        i = j + 1;
        return s;
    }
    const v = value();
    ws();
    if (i !== text.length) err('text after the value');
    return v;
}

export const big = (x) => (typeof x === 'bigint' ? x : BigInt(x));

// ---- tracewright's own view of the input ---------------------------------
// the canonical stream: {trace, events}; pid and tid as decimal strings,
// ts as BigInt ns
export function readJsonl(file) {
    const text = readText(file);
    if (text === null) throw new Error(`${file} is missing`);
    let trace = null;
    const events = [];
    for (const line of text.split('\n')) {
        if (!line.trim()) continue;
        const o = parseJSONBig(line);
        if (o.kind === 'trace') { trace = o; continue; }
        events.push({ ...o, ts: big(o.ts), pid: String(o.pid), tid: String(o.tid) });
    }
    return { trace, events };
}

// process and thread names from the meta events (the last one wins)
export function namesOf(events) {
    const proc = new Map(), thread = new Map();
    for (const e of events) {
        if (e.kind !== 'meta' || e.msg === undefined) continue;
        if (e.name === 'process_name') proc.set(e.pid, e.msg);
        else if (e.name === 'thread_name') thread.set(`${e.pid}/${e.tid}`, e.msg);
    }
    return { proc, thread };
}

// `stats --by thread --format json`: one row per (pid, tid, name)
export function readStats(file) {
    const text = readText(file);
    if (text === null) throw new Error(`${file} is missing`);
    const r = parseJSONBig(text);
    for (const s of r.scopes) {
        if (s.pid !== undefined) { s.pid = String(s.pid); s.tid = String(s.tid); }
        for (const k of ['count', 'incomplete']) s[k] = Number(s[k]);
    }
    return r;
}

export const threadKey = (pid, tid) => `${pid}/${tid}`;

// rows grouped per thread: Map "pid/tid" -> Map name -> row
export function rowsByThread(stats) {
    const m = new Map();
    for (const s of stats.scopes) {
        const k = threadKey(s.pid, s.tid);
        if (!m.has(k)) m.set(k, new Map());
        m.get(k).set(s.name, s);
    }
    return m;
}

export function fmtNs(ns) { return `${ns} ns`; }
