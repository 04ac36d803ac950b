// The interop checks that need no browser, run over the manifest that
// run.sh wrote: chrome (trace_engine), speedscope (schema and importer
// rules), ctf (babeltrace2's output) and folded. Prints PASS/FAIL/NOTE lines.
//   node check.mjs MANIFEST WRITER...
import { readManifest, check, fail } from './lib.mjs';
import { checkChrome } from './chrome.mjs';
import { checkSpeedscope } from './speedscope.mjs';
import { checkCtf } from './ctf.mjs';
import { checkFolded } from './folded.mjs';

const CHECKS = { chrome: checkChrome, speedscope: checkSpeedscope, ctf: checkCtf, folded: checkFolded };
const [manifest, ...writers] = process.argv.slice(2);
for (const w of writers) if (!CHECKS[w]) { fail(w, 'no such check'); process.exitCode = 1; }
for (const item of readManifest(manifest)) {
    for (const w of writers) {
        if (CHECKS[w]) await check(`${item.label} ${w}`, (problems, notes) => CHECKS[w](item, problems, notes));
    }
}
