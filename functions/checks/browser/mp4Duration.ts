// The playing time of an MP4 file, read from its boxes, so the duration a video is listed with is
// the one a player shows. The wall time between starting and stopping a recording is longer under
// load (Chromium's first frame comes late), by 0.3 s and more on a busy machine.
//
// Chromium's screen recording writes fragmented MP4 (moov without sample tables, then moof+mdat
// pairs); ffmpeg writes a plain one with the duration in mvhd. Both are read here.

interface Box {
  type: string;
  /** First byte of the payload (after the size and type). */
  start: number;
  end: number;
}

function* boxes(buf: Buffer, start: number, end: number): Generator<Box> {
  let off = start;
  while (off + 8 <= end) {
    let size = buf.readUInt32BE(off);
    const type = buf.toString('latin1', off + 4, off + 8);
    let header = 8;
    if (size === 1) {
      if (off + 16 > end) return;
      size = Number(buf.readBigUInt64BE(off + 8));
      header = 16;
    } else if (size === 0) {
      size = end - off;
    }
    if (size < header || off + size > end) return;
    yield { type, start: off + header, end: off + size };
    off += size;
  }
}

function child(buf: Buffer, parent: Box, type: string): Box | undefined {
  for (const box of boxes(buf, parent.start, parent.end)) if (box.type === type) return box;
  return undefined;
}

/** Version-dependent 32- or 64-bit field of a full box. */
const readSized = (buf: Buffer, off: number, wide: boolean) =>
  wide ? Number(buf.readBigUInt64BE(off)) : buf.readUInt32BE(off);

/** mvhd and mdhd share a layout: version, flags, created, modified, timescale, duration. */
function headerDuration(buf: Buffer, box: Box): { timescale: number; duration: number } {
  const wide = buf[box.start] === 1;
  const timesAt = box.start + 4 + (wide ? 16 : 8);
  return { timescale: buf.readUInt32BE(timesAt), duration: readSized(buf, timesAt + 4, wide) };
}

/** The end of a track fragment, in the track's timescale. */
function fragmentEnd(buf: Buffer, traf: Box, trexDefault: number): number {
  let base = 0;
  let defaultDuration = trexDefault;
  let total = 0;
  for (const box of boxes(buf, traf.start, traf.end)) {
    const flags = buf.readUInt32BE(box.start) & 0xffffff;
    if (box.type === 'tfdt') {
      base = readSized(buf, box.start + 4, buf[box.start] === 1);
    } else if (box.type === 'tfhd') {
      // track id, then the optional fields in flag order; default-sample-duration is 0x08.
      let at = box.start + 8;
      if (flags & 0x01) at += 8;
      if (flags & 0x02) at += 4;
      if (flags & 0x08) defaultDuration = buf.readUInt32BE(at);
    } else if (box.type === 'trun') {
      const count = buf.readUInt32BE(box.start + 4);
      let at = box.start + 8;
      if (flags & 0x01) at += 4; // data offset
      if (flags & 0x04) at += 4; // first sample flags
      const perSample = [0x100, 0x200, 0x400, 0x800].filter((f) => flags & f).length * 4;
      if (!(flags & 0x100)) total += count * defaultDuration;
      else for (let i = 0; i < count; i++) total += buf.readUInt32BE(at + i * perSample);
    }
  }
  return base + total;
}

/** Milliseconds of playing time, or undefined when the bytes are not an MP4 this can read. */
export function mp4DurationMs(buf: Buffer): number | undefined {
  try {
    const top = [...boxes(buf, 0, buf.length)];
    const moov = top.find((b) => b.type === 'moov');
    if (!moov) return undefined;
    const mvhd = child(buf, moov, 'mvhd');
    const trak = child(buf, moov, 'trak');
    const mdia = trak && child(buf, trak, 'mdia');
    const mdhd = mdia && child(buf, mdia, 'mdhd');
    const moofs = top.filter((b) => b.type === 'moof');
    if (!moofs.length) {
      if (!mvhd) return undefined;
      const { timescale, duration } = headerDuration(buf, mvhd);
      return timescale ? Math.round((duration * 1000) / timescale) : undefined;
    }
    if (!mdhd) return undefined;
    const { timescale } = headerDuration(buf, mdhd);
    const mvex = child(buf, moov, 'mvex');
    const trex = mvex && child(buf, mvex, 'trex');
    // trex: version/flags, track id, default description index, default sample duration.
    const trexDefault = trex ? buf.readUInt32BE(trex.start + 12) : 0;
    let end = 0;
    for (const moof of moofs) {
      const traf = child(buf, moof, 'traf');
      if (traf) end = Math.max(end, fragmentEnd(buf, traf, trexDefault));
    }
    return timescale && end ? Math.round((end * 1000) / timescale) : undefined;
  } catch {
    // A truncated box reads past the end: treat the file as unreadable, not the check as failed.
    return undefined;
  }
}
