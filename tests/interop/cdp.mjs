// A minimal Chrome DevTools Protocol client over --remote-debugging-pipe:
// one headless Chromium for the whole run, one tab per page loaded.
// No WebSocket and no port: commands go to the browser on file descriptor
// 3 and answers come back on 4, each message NUL-terminated JSON.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const CHROMIUM_FLAGS = [
    '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
    '--disable-extensions', '--disable-default-apps', '--mute-audio', '--hide-scrollbars',
    '--font-render-hinting=none', '--force-color-profile=srgb', '--allow-file-access-from-files',
    // several pages at once, each drawn and timed as if in front
    '--disable-background-timer-throttling', '--disable-renderer-backgrounding',
    '--disable-backgrounding-occluded-windows',
];

export class Browser {
    static async launch(executable = process.env.CHROMIUM || 'chromium', timeoutMs = 60000) {
        const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-interop-chromium.'));
        const proc = spawn(executable,
            [...CHROMIUM_FLAGS, `--user-data-dir=${profile}`, '--remote-debugging-pipe', 'about:blank'],
            { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });
        const b = new Browser(proc, profile, timeoutMs);
        await b.send('Target.setDiscoverTargets', { discover: false });
        return b;
    }

    constructor(proc, profile, timeoutMs) {
        this.proc = proc;
        this.profile = profile;
        this.timeoutMs = timeoutMs;
        this.nextId = 1;
        this.pending = new Map();
        this.listeners = new Set();
        this.stderr = '';
        this.exited = false;
        let buf = Buffer.alloc(0);
        proc.stdio[4].on('data', (chunk) => {
            buf = Buffer.concat([buf, chunk]);
            let nul;
            while ((nul = buf.indexOf(0)) >= 0) {
                const msg = JSON.parse(buf.subarray(0, nul).toString('utf8'));
                buf = buf.subarray(nul + 1);
                this.dispatch(msg);
            }
        });
        proc.stderr.on('data', (d) => { this.stderr = (this.stderr + d).slice(-4000); });
        proc.on('exit', (code, sig) => {
            this.exited = true;
            for (const { reject } of this.pending.values())
                reject(new Error(`chromium exited (${code ?? sig}): ${this.stderr.slice(-500)}`));
            this.pending.clear();
        });
        proc.stdio[3].on('error', () => {});
    }

    dispatch(msg) {
        if (msg.id !== undefined) {
            const p = this.pending.get(msg.id);
            if (!p) return;
            this.pending.delete(msg.id);
            clearTimeout(p.timer);
            if (msg.error) p.reject(new Error(`${p.method}: ${msg.error.message}`));
            else p.resolve(msg.result);
            return;
        }
        for (const l of this.listeners) l(msg);
    }

    send(method, params = {}, sessionId = undefined) {
        if (this.exited) return Promise.reject(new Error('chromium is not running'));
        const id = this.nextId++;
        const msg = { id, method, params };
        if (sessionId) msg.sessionId = sessionId;
        return new Promise((resolve, reject) => {
            const timer = setTimeout(() => {
                this.pending.delete(id);
                reject(new Error(`${method}: no answer from chromium within ${this.timeoutMs} ms`));
            }, this.timeoutMs);
            this.pending.set(id, { resolve, reject, timer, method });
            this.proc.stdio[3].write(JSON.stringify(msg) + '\0');
        });
    }

    async newPage(width = 1200, height = 900) {
        const { targetId } = await this.send('Target.createTarget', { url: 'about:blank', newWindow: true });
        const { sessionId } = await this.send('Target.attachToTarget', { targetId, flatten: true });
        const page = new Page(this, targetId, sessionId);
        await page.send('Page.enable');
        await page.send('Runtime.enable');
        await page.send('Emulation.setDeviceMetricsOverride',
            { width, height, deviceScaleFactor: 1, mobile: false });
        return page;
    }

    async close() {
        if (!this.exited) {
            try { await this.send('Browser.close'); } catch { /* exiting anyway */ }
            await new Promise((r) => {
                if (this.exited) return r();
                const t = setTimeout(() => { this.proc.kill('SIGKILL'); r(); }, 5000);
                this.proc.on('exit', () => { clearTimeout(t); r(); });
            });
        }
        fs.rmSync(this.profile, { recursive: true, force: true });
    }
}

export class Page {
    constructor(browser, targetId, sessionId) {
        this.browser = browser;
        this.targetId = targetId;
        this.sessionId = sessionId;
        this.console = [];      // {type, text} of every console message and uncaught exception
        this.dialogs = [];      // messages of alert(), confirm() and prompt(), dismissed
        this.waiters = new Set();
        this.listener = (msg) => {
            if (msg.sessionId !== this.sessionId) return;
            if (msg.method === 'Runtime.consoleAPICalled') {
                this.console.push({
                    type: msg.params.type,
                    text: msg.params.args.map((a) => a.value ?? a.description ?? a.type).join(' '),
                });
            } else if (msg.method === 'Runtime.exceptionThrown') {
                const d = msg.params.exceptionDetails;
                this.console.push({ type: 'exception', text: d.exception?.description ?? d.text });
            } else if (msg.method === 'Page.javascriptDialogOpening') {
                this.dialogs.push(msg.params.message);
                this.send('Page.handleJavaScriptDialog', { accept: false }).catch(() => {});
            }
            for (const w of this.waiters) w(msg);
        };
        browser.listeners.add(this.listener);
    }

    send(method, params = {}) { return this.browser.send(method, params, this.sessionId); }

    waitFor(method, timeoutMs = this.browser.timeoutMs) {
        return new Promise((resolve, reject) => {
            const w = (msg) => {
                if (msg.method !== method) return;
                this.waiters.delete(w);
                clearTimeout(t);
                resolve(msg.params);
            };
            const t = setTimeout(() => {
                this.waiters.delete(w);
                reject(new Error(`no ${method} within ${timeoutMs} ms`));
            }, timeoutMs);
            this.waiters.add(w);
        });
    }

    async goto(url) {
        const loaded = this.waitFor('Page.loadEventFired');
        const r = await this.send('Page.navigate', { url });
        if (r.errorText) throw new Error(`cannot load ${url}: ${r.errorText}`);
        await loaded;
    }

    async evaluate(expression) {
        const r = await this.send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true });
        if (r.exceptionDetails)
            throw new Error(`evaluate: ${r.exceptionDetails.exception?.description ?? r.exceptionDetails.text}`);
        return r.result.value;
    }

    // polls EXPRESSION until it gives a truthy value; returns it (or the last
    // falsy value after timeoutMs)
    async poll(expression, timeoutMs = 15000, everyMs = 50) {
        const end = Date.now() + timeoutMs;
        for (;;) {
            const v = await this.evaluate(expression);
            if (v || Date.now() > end) return v;
            await new Promise((r) => setTimeout(r, everyMs));
        }
    }

    // forgets the console and dialogs of earlier documents, loads about:blank
    async reset(width = 1200, height = 900) {
        this.console.length = 0;
        this.dialogs.length = 0;
        await this.goto('about:blank');
        await this.send('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 1, mobile: false });
    }

    async screenshot(optimizeForSpeed = false) {
        const r = await this.send('Page.captureScreenshot', { format: 'png', captureBeyondViewport: false, optimizeForSpeed });
        return Buffer.from(r.data, 'base64');
    }

    async close() {
        this.browser.listeners.delete(this.listener);
        try { await this.browser.send('Target.closeTarget', { targetId: this.targetId }); } catch { /* gone */ }
    }
}
