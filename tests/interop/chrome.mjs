// chrome: the Trace Event JSON of `convert -t chrome`, loaded by the trace
// engine of Chrome DevTools' Performance panel (@paulirish/trace_engine),
// compared with `tracewright stats --by thread` and the jsonl stream.
import path from 'node:path';
import {
    conversionProblems, readText, readJsonl, readStats, namesOf, threadKey, big, TIMES_MOVED,
} from './lib.mjs';

let Trace = null;

async function engine() {
    if (Trace) return Trace;
    // DevTools runs in a page; the engine only needs DOMRect from it
    if (typeof globalThis.DOMRect === 'undefined') {
        globalThis.DOMRect = class DOMRect {
            constructor(x = 0, y = 0, width = 0, height = 0) {
                Object.assign(this, { x, y, width, height, top: y, left: x, right: x + width, bottom: y + height });
            }
        };
    }
    Trace = await import('@paulirish/trace_engine');
    return Trace;
}

// runs FN with console.error/warn/log captured (the engine reports
// unbalanced B/E pairs with console.error and goes on)
async function captureConsole(fn) {
    const saved = { error: console.error, warn: console.warn, log: console.log };
    const lines = [];
    for (const k of Object.keys(saved)) console[k] = (...a) => lines.push(`${k}: ${a.map(String).join(' ')}`);
    try {
        const r = await fn();
        return { r, lines };
    } finally {
        Object.assign(console, saved);
    }
}

const inc = (m, k, by = 1) => m.set(k, (m.get(k) || 0) + by);

export async function checkChrome(item, problems, notes) {
    const { dir } = item;
    if (!conversionProblems(dir, 'chrome', problems)) return;
    const text = readText(path.join(dir, 'chrome.json'));
    if (text === null) { problems.push('no output file'); return; }
    const err = readText(path.join(dir, 'chrome.err')) || '';
    const coarse = /precision-loss/.test(err);
    const moved = TIMES_MOVED.test(err);
    if (moved) notes.push('the conversion moved times forward: slice counts and names compared, not durations');
    let json;
    try { json = JSON.parse(text); } catch (e) { problems.push(`not JSON: ${e.message}`); return; }
    const events = Array.isArray(json) ? json : json.traceEvents;
    if (!Array.isArray(events)) { problems.push('neither an array nor an object with "traceEvents"'); return; }
    const tidMap = (json.otherData && json.otherData.tid_map) || {};
    for (const [k, v] of Object.entries(tidMap)) {
        if (!/^\d+$/.test(k) || typeof v !== 'string' || !/^\d+$/.test(v))
            problems.push(`otherData.tid_map entry ${JSON.stringify(k)}: ${JSON.stringify(v)} is not "<written tid>": "<original tid>"`);
    }
    const orig = (tid) => (Object.hasOwn(tidMap, String(tid)) ? tidMap[String(tid)] : String(tid));

    // the raw events: ids, phases
    const phases = new Map();
    let badIds = 0;
    const instants = new Map(), counters = new Map(), procNames = new Map(), threadNames = new Map();
    for (const e of events) {
        inc(phases, e.ph);
        for (const id of ['pid', 'tid']) {
            if (e[id] === undefined && id === 'tid' && (e.ph === 'C' || e.ph === 'M')) continue;
            if (!Number.isInteger(e[id]) || e[id] < 0 || e[id] > 0xffffffff) {
                if (badIds++ < 3) problems.push(`event ${JSON.stringify(e).slice(0, 120)}: ${id} is not an integer of 32 bits`);
            }
        }
        if (e.ph === 'i' || e.ph === 'I') inc(instants, `${e.pid}/${orig(e.tid)}\t${e.name}`);
        else if (e.ph === 'C') inc(counters, `${e.pid}\t${e.name}`);
        else if (e.ph === 'M' && e.name === 'process_name') procNames.set(String(e.pid), e.args && e.args.name);
        else if (e.ph === 'M' && e.name === 'thread_name') threadNames.set(`${e.pid}/${orig(e.tid)}`, e.args && e.args.name);
        if ((e.ph === 'B' || e.ph === 'E' || e.ph === 'X' || e.ph === 'i' || e.ph === 'I' || e.ph === 'C') && typeof e.ts !== 'number')
            if (badIds++ < 3) problems.push(`event ${JSON.stringify(e).slice(0, 120)}: no numeric ts`);
    }
    const known = new Set(['B', 'E', 'X', 'i', 'I', 'C', 'M']);
    for (const ph of phases.keys()) if (!known.has(ph)) problems.push(`unexpected phase ${JSON.stringify(ph)} (${phases.get(ph)} events)`);

    // expectations
    const stats = readStats(path.join(dir, 'stats.json'));
    const { events: jev } = readJsonl(path.join(dir, 'in.jsonl'));
    const names = namesOf(jev);
    const want = new Map();
    const wantThreads = new Set();
    for (const s of stats.scopes) {
        want.set(`${s.pid}/${s.tid}\t${s.name}`, { count: s.count, ns: big(s.call.sum) });
        wantThreads.add(threadKey(s.pid, s.tid));
    }
    const wantInstants = new Map(), wantCounters = new Map();
    for (const e of jev) {
        if (e.kind === 'instant') inc(wantInstants, `${e.pid}/${e.tid}\t${e.name}`);
        else if (e.kind === 'counter') inc(wantCounters, `${e.pid}\t${e.name}`);
    }

    // the engine's view: the threads the Performance panel draws
    const T = await engine();
    const model = T.TraceModel.Model.createWithAllHandlers();
    const { lines } = await captureConsole(() => model.parse(JSON.parse(text).traceEvents ?? JSON.parse(text)));
    // it keeps one stack of open B events for the whole file (not one per
    // thread) and pairs in file order: B/E of threads that overlap in time
    // get mismatched, and those slices are drawn 0 long
    const mismatch = lines.filter((x) => /Begin\/End events mismatch/.test(x));
    if (mismatch.length)
        problems.push(`trace_engine reports ${mismatch.length} "Begin/End events mismatch" (it pairs B/E in file order on one stack for all threads), first: ${mismatch[0].replace(/^error: /, '')}`);
    for (const l of lines.filter((x) => !mismatch.includes(x) && /^error/i.test(x)).slice(0, 2)) problems.push(`trace_engine says ${l}`);
    const parsed = model.parsedTrace();
    if (!parsed) { problems.push('trace_engine produced no parsed trace'); return; }
    const data = parsed.data ?? parsed;
    const threads = T.Handlers.Threads.threadsInTrace(data);
    const got = new Map();
    const gotThreads = new Set();
    let dropped = 0, engineInstants = 0;
    for (const th of threads) {
        const tkey = `${th.pid}/${orig(th.tid)}`;
        for (const e of th.entries) {
            if (e.ph === 'I' || e.ph === 'i') { engineInstants++; continue; }
            if (e.ph !== 'X') continue;
            gotThreads.add(tkey);
            if (!th.entryToNode.has(e)) { dropped++; continue; }
            const k = `${tkey}\t${e.name}`;
            if (!got.has(k)) got.set(k, { count: 0, us: 0 });
            const g = got.get(k);
            g.count++;
            g.us += e.dur || 0;
        }
        const wantName = names.thread.get(tkey);
        if (wantName !== undefined && th.name !== wantName)
            problems.push(`thread ${tkey}: trace_engine names it ${JSON.stringify(th.name)}, expected ${JSON.stringify(wantName)}`);
    }
    if (dropped) problems.push(`${dropped} slices are not in trace_engine's tree (they overlap their parent: not drawn)`);
    for (const t of wantThreads) if (!gotThreads.has(t)) problems.push(`thread ${t} has scopes but trace_engine shows no slices for it`);
    for (const [k, w] of want) {
        const g = got.get(k) || { count: 0, us: 0 };
        const [thr, name] = k.split('\t');
        if (g.count !== w.count) {
            problems.push(`${thr} ${JSON.stringify(name)}: ${g.count} slices in trace_engine, stats counts ${w.count}`);
            continue;
        }
        if (moved) continue;
        // call time (end - begin) of every invocation; µs in the JSON
        const gotNs = g.us * 1000, wantNs = Number(w.ns);
        const tol = (coarse ? 1000 : 1) * Math.max(1, w.count) + Math.abs(wantNs) * 1e-12;
        if (Math.abs(gotNs - wantNs) > tol)
            problems.push(`${thr} ${JSON.stringify(name)}: slices last ${fmt(gotNs)} in all, stats call time ${fmt(wantNs)}`);
    }
    for (const [k, g] of got) if (!want.has(k)) {
        const [thr, name] = k.split('\t');
        problems.push(`${thr} ${JSON.stringify(name)}: ${g.count} slices in trace_engine that stats does not have`);
    }

    // what the engine does not model in generic traces, from the JSON itself
    compareCounts('instant events (ph i/I)', wantInstants, instants, problems);
    compareCounts('counter events (ph C)', wantCounters, counters, problems);
    for (const [pid, n] of names.proc) {
        if (procNames.get(pid) !== n)
            problems.push(`process ${pid}: process_name metadata ${JSON.stringify(procNames.get(pid))}, expected ${JSON.stringify(n)}`);
    }
    for (const [t, n] of names.thread) {
        if (threadNames.get(t) !== n)
            problems.push(`thread ${t}: thread_name metadata ${JSON.stringify(threadNames.get(t))}, expected ${JSON.stringify(n)}`);
    }
    // DevTools draws instant events of phase "I" only; "i" (the same in the
    // Trace Event Format) are read but not drawn by this engine
    const wantInst = [...wantInstants.values()].reduce((a, b) => a + b, 0);
    if (wantInst > 0 && engineInstants < wantInst)
        notes.push(`trace_engine draws ${engineInstants} of the ${wantInst} instant events (it keeps phase "I" only, not "i")`);
}

function compareCounts(what, want, got, problems) {
    const keys = new Set([...want.keys(), ...got.keys()]);
    for (const k of keys) {
        const w = want.get(k) || 0, g = got.get(k) || 0;
        if (w !== g) {
            const [where, name] = k.split('\t');
            problems.push(`${where} ${JSON.stringify(name)}: ${g} ${what}, expected ${w}`);
        }
    }
}

function fmt(ns) {
    const r = Math.round(ns);
    return Math.abs(ns - r) < 1e-3 ? `${r} ns` : `${ns.toFixed(3)} ns`;
}
