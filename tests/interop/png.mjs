// Decodes a non-interlaced 8-bit PNG (what Chromium's screenshots are) into
// RGBA pixels and measures how much of it is not background.
import zlib from 'node:zlib';

export function decodePNG(buf) {
    const sig = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    if (buf.length < 8 || !buf.subarray(0, 8).equals(sig)) throw new Error('not a PNG file');
    let off = 8, width = 0, height = 0, depth = 0, ctype = 0, interlace = 0;
    let palette = null;
    const idat = [];
    while (off + 8 <= buf.length) {
        const len = buf.readUInt32BE(off);
        const type = buf.toString('latin1', off + 4, off + 8);
        const data = buf.subarray(off + 8, off + 8 + len);
        off += 12 + len;
        if (type === 'IHDR') {
            width = data.readUInt32BE(0);
            height = data.readUInt32BE(4);
            depth = data[8];
            ctype = data[9];
            interlace = data[12];
        } else if (type === 'PLTE') palette = data;
        else if (type === 'IDAT') idat.push(data);
        else if (type === 'IEND') break;
    }
    if (!width || !height) throw new Error('PNG without IHDR');
    if (depth !== 8 || interlace !== 0) throw new Error(`unsupported PNG: depth ${depth}, interlace ${interlace}`);
    const channels = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }[ctype];
    if (!channels) throw new Error(`unsupported PNG colour type ${ctype}`);
    const raw = zlib.inflateSync(Buffer.concat(idat));
    const stride = width * channels;
    if (raw.length < height * (stride + 1)) throw new Error('PNG data too short');
    // unfilter in place: row y's bytes start at y * (stride + 1) + 1
    const bpp = channels;
    for (let y = 0; y < height; y++) {
        const base = y * (stride + 1) + 1, filter = raw[base - 1], up = base - stride - 1;
        switch (filter) {
        case 0: break;
        case 1: for (let i = bpp; i < stride; i++) raw[base + i] = (raw[base + i] + raw[base + i - bpp]) & 255; break;
        case 2: if (y) for (let i = 0; i < stride; i++) raw[base + i] = (raw[base + i] + raw[up + i]) & 255; break;
        case 3:
            for (let i = 0; i < stride; i++) {
                const a = i >= bpp ? raw[base + i - bpp] : 0, b = y ? raw[up + i] : 0;
                raw[base + i] = (raw[base + i] + ((a + b) >> 1)) & 255;
            }
            break;
        case 4:
            for (let i = 0; i < stride; i++) {
                const a = i >= bpp ? raw[base + i - bpp] : 0, b = y ? raw[up + i] : 0;
                const c = i >= bpp && y ? raw[up + i - bpp] : 0;
                const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
                raw[base + i] = (raw[base + i] + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c)) & 255;
            }
            break;
        default: throw new Error(`bad PNG filter ${filter} in row ${y}`);
        }
    }
    const rgba = new Uint8Array(width * height * 4);
    for (let y = 0; y < height; y++) {
        const base = y * (stride + 1) + 1;
        for (let px = 0; px < width; px++) {
            const o = (y * width + px) * 4, s = base + px * channels;
            if (ctype === 2 || ctype === 6) {
                rgba[o] = raw[s]; rgba[o + 1] = raw[s + 1]; rgba[o + 2] = raw[s + 2];
                rgba[o + 3] = ctype === 6 ? raw[s + 3] : 255;
            } else if (ctype === 3) {
                const q = raw[s] * 3;
                rgba[o] = palette[q]; rgba[o + 1] = palette[q + 1]; rgba[o + 2] = palette[q + 2]; rgba[o + 3] = 255;
            } else {
                rgba[o] = rgba[o + 1] = rgba[o + 2] = raw[s];
                rgba[o + 3] = ctype === 4 ? raw[s + 1] : 255;
            }
        }
    }
    return { width, height, rgba };
}

// distinct colours, the most common colour (the background) and the share
// of pixels that differ from it
export function measure(img) {
    const counts = new Map();
    const n = img.width * img.height;
    const px = new Uint32Array(img.rgba.buffer, img.rgba.byteOffset, n);
    // runs of one colour count once (screenshots are mostly flat areas)
    for (let i = 0; i < n;) {
        const k = px[i];
        let j = i + 1;
        while (j < n && px[j] === k) j++;
        counts.set(k, (counts.get(k) || 0) + (j - i));
        i = j;
    }
    let bg = 0, bgCount = -1;
    for (const [k, c] of counts) if (c > bgCount) { bg = k; bgCount = c; }
    // colours that cover at least 0.05% of the picture (not just text edges)
    let solid = 0, second = 0;
    for (const [k, c] of counts) {
        if (c >= n * 0.0005) solid++;
        if (k !== bg && c > second) second = c;
    }
    return {
        width: img.width, height: img.height, colours: counts.size, solidColours: solid,
        secondColour: second / n,
        // little-endian view of R, G, B, A bytes
        background: '#' + [bg & 255, (bg >>> 8) & 255, (bg >>> 16) & 255].map((v) => v.toString(16).padStart(2, '0')).join(''),
        foreground: (n - bgCount) / n,
    };
}
