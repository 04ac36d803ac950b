// The interop checks that need a browser, in one headless Chromium for the
// whole run (cdp.mjs):
//   svg, svg-chart   the SVG of `-t svg` and `-t svg --flamechart` (already
//                    checked by xmllint in run.sh) opens as an SVG document
//                    and renders to a 1200x900 screenshot that is not blank
//                    when the input has scopes
//   speedscope-app   speedscope's own page (index.html of the npm package)
//                    imports the `-t speedscope` file, as `speedscope FILE`
//                    does: no import error, and its profile list names the
//                    file's profiles
// and the pictures for the README (SCREENSHOT_DIR).
//   node browser.mjs MANIFEST SCREENSHOT_DIR SCREENSHOT_LABEL CHECK...
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Browser } from './cdp.mjs';
import { decodePNG, measure } from './png.mjs';
import { readManifest, runCheck, runPool, conversionProblems, exitOf, readText, readStats, failLine, note } from './lib.mjs';

const require = createRequire(import.meta.url);
const SPEEDSCOPE = path.join(path.dirname(require.resolve('speedscope/package.json')), 'dist', 'release', 'index.html');

const [manifest, shotDir, shotLabel, ...checks] = process.argv.slice(2);
const items = readManifest(manifest);

function hasScopes(dir) {
    try { return readStats(path.join(dir, 'stats.json')).scopes.length > 0; } catch { return false; }
}

const SVG_OUT = { svg: 'flame.svg', 'svg-chart': 'chart.svg' };

// pages, reused: one of each kind ('svg', 'speedscope') per job running
const idle = { svg: [], speedscope: [] };
async function withPage(kind, fn) {
    const page = idle[kind].pop() || await browser.newPage(1200, 900);
    try {
        page.console.length = 0;
        page.dialogs.length = 0;
        return await fn(page);
    } finally {
        idle[kind].push(page);
    }
}

// opens one SVG file; returns the screenshot and its measures
async function renderSvg(page, file, size = null) {
    {
        await page.goto(pathToFileURL(file).href);
        const doc = await page.evaluate(`(() => {
            const r = document.documentElement;
            const b = r.getBBox ? r.getBoundingClientRect() : null;
            return { ns: r.namespaceURI, tag: r.localName,
                     parsererror: document.getElementsByTagName('parsererror').length,
                     width: b ? Math.ceil(b.width) : 0, height: b ? Math.ceil(b.height) : 0,
                     texts: document.getElementsByTagName('text').length,
                     shapes: document.querySelectorAll('rect,path,polygon').length };
        })()`);
        const [w, h] = size === 'content' && doc.width > 0 && doc.height > 0
            ? [Math.min(Math.max(doc.width, 200), 2400), Math.min(Math.max(doc.height, 100), 2400)] : [1200, 900];
        await page.send('Emulation.setDeviceMetricsOverride', { width: w, height: h, deviceScaleFactor: 1, mobile: false });
        const png = await page.screenshot(size !== 'content');
        return { doc, png, m: measure(decodePNG(png)), console: page.console };
    }
}

async function checkSvg(page, item, which, problems) {
    const { dir } = item;
    if (!conversionProblems(dir, which, problems)) return;
    const file = path.join(dir, SVG_OUT[which]);
    if (!fs.existsSync(file)) { problems.push('no output file'); return; }
    const x = exitOf(dir, `xmllint-${which}`);
    if (x !== 0) {
        problems.push(`not well-formed XML: ${(readText(path.join(dir, `xmllint-${which}.err`)) || '').trim().split('\n').slice(0, 2).join(' | ')}`);
        return;
    }
    const { doc, m, console: cons } = await renderSvg(page, file);
    if (doc.ns !== 'http://www.w3.org/2000/svg' || doc.tag !== 'svg')
        problems.push(`Chromium opened it as <${doc.tag}> in ${doc.ns}, not as an SVG document`);
    if (doc.parsererror) problems.push('Chromium reports a parser error');
    for (const c of cons.filter((c) => c.type === 'error' || c.type === 'exception').slice(0, 2))
        problems.push(`script error: ${c.text}`);
    if (hasScopes(dir)) {
        // a frame box at least: 0.5% of the pixels not background, and
        // one colour besides it on 0.1% (a 70x16 box), not just text
        if (m.foreground < 0.005 || m.secondColour < 0.001)
            problems.push(`the screenshot is nearly blank: ${(m.foreground * 100).toFixed(2)}% of the pixels differ from the background ${m.background}, the largest other colour covers ${(m.secondColour * 100).toFixed(2)}% (${m.colours} colours in all)`);
    }
}

// speedscope's page, loaded once per page with #localProfilePath= naming an
// empty script: that is how the `speedscope` command opens a file (its
// script calls speedscope.loadFileFromBase64), and it leaves
// speedscope.loadFileFromBase64 there to import one file after another, as
// the Import button would.  Returns what the page shows.
async function speedscopeOpen(page, file, name) {
    if (!page.speedscopeReady) {
        const loader = path.join(path.dirname(manifest), 'speedscope-loader.js');
        fs.writeFileSync(loader, '// browser.mjs imports the files one by one\n');
        await page.goto(`${pathToFileURL(SPEEDSCOPE).href}#localProfilePath=${encodeURIComponent(loader)}`);
        if (!await page.poll('typeof window.speedscope === "object"', 20000))
            throw new Error('speedscope did not start (no window.speedscope)');
        page.speedscopeReady = true;
        page.console.length = 0;
    }
    await page.evaluate(`speedscope.loadFileFromBase64(${JSON.stringify(name)}, ${JSON.stringify(fs.readFileSync(file).toString('base64'))})`);
    // the importer logs "import: N ms" (console.timeEnd) when it is done,
    // "Failed to load format" when it threw; alert() for unknown or empty input
    const end = Date.now() + 30000;
    const done = () => page.dialogs.length ||
        page.console.some((c) => /^import: |Failed to load format/.test(c.text) || c.type === 'exception');
    while (!done() && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    // let the page draw two frames
    await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
    const state = done() ? await page.evaluate(`(() => {
        const t = document.body ? document.body.innerText : '';
        if (t.includes('Something went wrong')) return { error: 'Something went wrong' };
        return { rows: [...document.querySelectorAll('tr[title]')].map((r) => r.title), text: t };
    })()`) : null;
    return { state, dialogs: page.dialogs, console: page.console };
}

async function checkSpeedscopeApp(page, item, problems, notes) {
    const { dir } = item;
    if (!conversionProblems(dir, 'speedscope', problems)) return;
    const file = path.join(dir, 'trace.speedscope.json');
    let want;
    try { want = JSON.parse(fs.readFileSync(file, 'utf8')).profiles.map((p) => p.name); } catch (e) {
        problems.push(`cannot read the file: ${e.message}`);
        return;
    }
    const { state, dialogs, console: cons } = await speedscopeOpen(page, file, path.basename(file));
    {
        const failed = cons.filter((c) => /Failed to load format/.test(c.text) || c.type === 'exception');
        if (state && state.error)
            problems.push(`speedscope: "${state.error}"${failed.length ? ': ' + failed[0].text.split('\n')[0].replace(/^Failed to load format /, '') : ''}`);
        for (const d of dialogs) {
            if (want.length === 0 && /empty/.test(d)) notes.push(`speedscope says: ${d}`);
            else problems.push(`speedscope says: ${d}`);
        }
        if (!state && !dialogs.length) problems.push('speedscope did not finish importing within 30 s');
        if (state && !state.error && !dialogs.length && want.length) {
            // the toolbar shows the first profile, "(1/N)" and, with N > 1,
            // a list of every profile
            const first = `${want[0]}${want.length > 1 ? ` (1/${want.length})` : ''}`;
            if (!state.text.split('\n').some((l) => l.trim() === first))
                problems.push(`speedscope's toolbar does not show ${JSON.stringify(first)}`);
            if (want.length > 1 && JSON.stringify(state.rows) !== JSON.stringify(want))
                problems.push(`speedscope lists the profiles ${JSON.stringify(state.rows).slice(0, 200)}, the file has ${JSON.stringify(want).slice(0, 200)}`);
        }
    }
}

async function screenshots(item) {
    fs.mkdirSync(shotDir, { recursive: true });
    const made = [];
    const { dir } = item;
    for (const [which, png] of [['svg', 'flamegraph.png'], ['svg-chart', 'flamechart.png']]) {
        const file = path.join(dir, SVG_OUT[which]);
        if (exitOf(dir, which) !== 0 || !fs.existsSync(file)) continue;
        const r = await withPage('svg', (page) => renderSvg(page, file, 'content'));
        fs.writeFileSync(path.join(shotDir, png), r.png);
        made.push(png);
    }
    for (const [what, file, png] of [
        ['speedscope', 'trace.speedscope.json', 'speedscope.png'],
        ['chrome', 'chrome.json', 'chrome-in-speedscope.png'],
    ]) {
        if (exitOf(dir, what) !== 0 || !fs.existsSync(path.join(dir, file))) continue;
        await withPage('speedscope', async (page) => {
            const { state } = await speedscopeOpen(page, path.join(dir, file), file);
            if (state && !state.error) {
                // a picture as high as the example's flame chart; it is
                // drawn in frames: give it a moment
                await page.send('Emulation.setDeviceMetricsOverride', { width: 1200, height: 480, deviceScaleFactor: 1, mobile: false });
                await new Promise((r) => setTimeout(r, 700));
                fs.writeFileSync(path.join(shotDir, png), await page.screenshot());
                made.push(png);
            }
        });
    }
    return made;
}

const browser = await Browser.launch();
const stop = () => { browser.proc.kill('SIGKILL'); process.exit(130); };
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
try {
    const jobs = [];
    for (const item of items) {
        for (const c of checks) {
            const label = `${item.label} ${c}`;
            if (c === 'svg' || c === 'svg-chart')
                jobs.push(() => withPage('svg', (page) => runCheck(label, (p) => checkSvg(page, item, c, p))));
            else if (c === 'speedscope-app')
                jobs.push(() => withPage('speedscope', (page) => runCheck(label, (p, n) => checkSpeedscopeApp(page, item, p, n))));
            else jobs.push(async () => [failLine(label, 'no such check')]);
        }
    }
    // a few pages at a time: Chromium renders while node decodes
    await runPool(jobs, Number(process.env.INTEROP_PAGES || 3));
    const item = items.find((i) => i.label === shotLabel);
    if (!item) note('screenshots', `no input ${shotLabel}`);
    else {
        const made = await screenshots(item);
        note('screenshots', `${made.length ? made.join(', ') : 'none'} of ${shotLabel} in ${shotDir}`);
    }
} finally {
    await browser.close();
}
