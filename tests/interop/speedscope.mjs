// speedscope: the file of `convert -t speedscope`, validated against the
// file-format schema that the speedscope package ships, then replayed as
// speedscope's evented-profile importer does (CallTreeProfileBuilder: frames
// opened and closed in ascending time, each close matching the innermost
// open frame, nothing left open) and compared per thread with
// `tracewright stats --by thread`: one profile per thread, per frame name
// the number of opens (count), the time on the stack (call total: outermost
// invocations only, as speedscope's total weight) and the time on top of it
// (net total, where no preemption makes gross and call differ).
// The real importer runs in Chromium: see browser.mjs.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import Ajv from 'ajv';
import {
    conversionProblems, readText, readJsonl, readStats, namesOf, threadKey, rowsByThread, big, TIMES_MOVED,
} from './lib.mjs';

const require = createRequire(import.meta.url);
const SCHEMA = path.join(path.dirname(require.resolve('speedscope/package.json')),
    'dist', 'release', 'file-format-schema.json');
const UNIT_NS = { nanoseconds: 1, microseconds: 1e3, milliseconds: 1e6, seconds: 1e9 };

let validate = null;
function schema() {
    if (!validate) {
        const ajv = new Ajv({ allErrors: true, strict: false });
        validate = ajv.compile(JSON.parse(fs.readFileSync(SCHEMA, 'utf8')));
    }
    return validate;
}

// the profile name tracewright gives a thread (docs/formats/speedscope.md)
export function profileName(pid, tid, names) {
    const p = names.proc.get(pid), t = names.thread.get(threadKey(pid, tid));
    const ps = p !== undefined ? `${p} (pid ${pid})` : `pid ${pid}`;
    const ts = t !== undefined ? `${t} (tid ${tid})` : `tid ${tid}`;
    return `${ps} / ${ts}`;
}

// replays one evented profile; returns per frame name {opens, total, self}
// in the profile's unit, or throws what speedscope's importer would throw
export function replay(profile, frames) {
    const per = new Map();
    const get = (n) => {
        if (!per.has(n)) per.set(n, { opens: 0, total: 0, self: 0 });
        return per.get(n);
    };
    const stack = [];
    const onStack = new Map();     // frame name -> depth count (recursion)
    let last = profile.startValue;
    for (const [i, ev] of profile.events.entries()) {
        if (!Number.isInteger(ev.frame) || ev.frame < 0 || ev.frame >= frames.length)
            throw new Error(`event ${i}: frame ${ev.frame} is not an index of shared.frames`);
        if (ev.at < last)
            throw new Error(`event ${i}: at ${ev.at} is before the previous event (${last}); speedscope needs ascending times`);
        if (ev.at > profile.endValue)
            throw new Error(`event ${i}: at ${ev.at} is after endValue ${profile.endValue}`);
        const d = ev.at - last;
        for (const n of onStack.keys()) get(n).total += d;
        if (stack.length) get(frames[stack.at(-1)].name).self += d;
        last = ev.at;
        const name = frames[ev.frame].name;
        if (ev.type === 'O') {
            stack.push(ev.frame);
            onStack.set(name, (onStack.get(name) || 0) + 1);
            get(name).opens++;
        } else {
            if (!stack.length) throw new Error(`event ${i}: closes frame ${JSON.stringify(name)} with no frame open`);
            const top = stack.at(-1);
            if (top !== ev.frame)
                throw new Error(`event ${i}: closes frame ${JSON.stringify(name)} while ${JSON.stringify(frames[top].name)} is the innermost open frame`);
            stack.pop();
            const c = onStack.get(name) - 1;
            if (c) onStack.set(name, c);
            else onStack.delete(name);
        }
    }
    if (stack.length) throw new Error(`${stack.length} frames still open at the end (innermost ${JSON.stringify(frames[stack.at(-1)].name)})`);
    return per;
}

export async function checkSpeedscope(item, problems, notes) {
    const { dir } = item;
    if (!conversionProblems(dir, 'speedscope', problems)) return;
    const text = readText(path.join(dir, 'trace.speedscope.json'));
    if (text === null) { problems.push('no output file'); return; }
    const err = readText(path.join(dir, 'speedscope.err')) || '';
    let file;
    try { file = JSON.parse(text); } catch (e) { problems.push(`not JSON: ${e.message}`); return; }
    const v = schema();
    if (!v(file)) {
        for (const e of v.errors.slice(0, 4)) problems.push(`schema: ${e.instancePath || '/'} ${e.message}`);
        return;
    }
    if (file.$schema !== 'https://www.speedscope.app/file-format-schema.json')
        problems.push('"$schema" is missing: speedscope recognises its own format by it');
    const frames = file.shared.frames;

    const stats = readStats(path.join(dir, 'stats.json'));
    const { events } = readJsonl(path.join(dir, 'in.jsonl'));
    const names = namesOf(events);
    const rows = rowsByThread(stats);
    const seenThreads = new Set(events.filter((e) => e.kind !== 'meta').map((e) => threadKey(e.pid, e.tid)));
    const byName = new Map();
    for (const t of new Set([...rows.keys(), ...seenThreads])) {
        const [pid, tid] = t.split('/');
        byName.set(profileName(pid, tid, names), t);
    }
    const coarse = /precision-loss/.test(err);
    const moved = TIMES_MOVED.test(err);
    if (moved) notes.push('the conversion moved times forward: opens per frame compared, not times');
    const found = new Set();
    for (const [pi, prof] of file.profiles.entries()) {
        const where = `profile ${pi} ${JSON.stringify(prof.name)}`;
        if (prof.type !== 'evented') { problems.push(`${where}: type ${prof.type}, expected evented`); continue; }
        const unit = UNIT_NS[prof.unit];
        if (!unit) { problems.push(`${where}: unit ${JSON.stringify(prof.unit)} is not a unit of time`); continue; }
        const t = byName.get(prof.name);
        if (t === undefined) { problems.push(`${where}: no thread of the input has this name`); continue; }
        if (found.has(t)) { problems.push(`${where}: a second profile for thread ${t}`); continue; }
        found.add(t);
        let per;
        try { per = replay(prof, frames); } catch (e) { problems.push(`${where}: ${e.message}`); continue; }
        const want = rows.get(t) || new Map();
        // the thread was preempted (suspend/resume): net no longer equals
        // the self time of the call stack
        const preempted = [...want.values()].some((r) => big(r.gross.sum) !== big(r.call.sum));
        for (const [name, r] of want) {
            const g = per.get(name) || { opens: 0, total: 0, self: 0 };
            if (g.opens !== r.count) {
                problems.push(`${where} ${JSON.stringify(name)}: opened ${g.opens} times, stats counts ${r.count}`);
                continue;
            }
            if (moved) continue;
            const tol = (coarse ? unit : 1) * 2 * Math.max(1, r.count);
            const total = g.total * unit, callTotal = Number(big(r.call.total));
            if (Math.abs(total - callTotal) > tol + Math.abs(callTotal) * 1e-12)
                problems.push(`${where} ${JSON.stringify(name)}: total ${total} ns, stats call total ${callTotal} ns` +
                    (Math.abs(total - Number(big(r.gross.total))) <= tol ? ' (it equals the gross total)' : ''));
            const self = g.self * unit, net = Number(big(r.net.total));
            if (!preempted && Math.abs(self - net) > tol + Math.abs(net) * 1e-12)
                problems.push(`${where} ${JSON.stringify(name)}: self ${self} ns, stats net total ${net} ns`);
        }
        for (const [name, g] of per) if (!want.has(name) && g.opens)
            problems.push(`${where} ${JSON.stringify(name)}: opened ${g.opens} times; stats has no such scope on the thread`);
    }
    for (const t of rows.keys()) if (!found.has(t)) {
        const [pid, tid] = t.split('/');
        problems.push(`no profile ${JSON.stringify(profileName(pid, tid, names))} for thread ${t}, which has scopes`);
    }
    if (file.profiles.length === 0 && rows.size === 0) notes.push('no profiles (the input has no scopes)');
}
