/**
 * MLT XML (Shotcut, Kdenlive, melt): a profile of the source's size and exact rate (MLT changes
 * levels and frames when they differ), the original (by its name, beside the project) as one avformat producer (full-range sources
 * say so), and a playlist with one entry per piece, `out` inclusive as MLT counts; a muted piece's
 * entry carries a volume filter at its gain.
 */
import { xmlEscape, type ExportSource, type TimelinePiece } from './timeline';

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

export function writeMlt(source: ExportSource, pieces: readonly TimelinePiece[]): string {
  const r = source.rate;
  const width = source.width ?? 1920;
  const height = source.height ?? 1080;
  const g = gcd(width, height);
  const sourceFrames = Math.round((source.durationSec * r.num) / r.den);
  const entries = pieces.map((p) => {
    const attrs = `producer="producer0" in="${p.srcIn}" out="${p.srcOut - 1}"`;
    if (p.gain >= 1) return `    <entry ${attrs}/>`;
    return [
      `    <entry ${attrs}>`,
      '      <filter>',
      '        <property name="mlt_service">volume</property>',
      `        <property name="level">${p.gain <= 0 ? -96 : Math.round(2000 * Math.log10(p.gain)) / 100}</property>`,
      '      </filter>',
      '    </entry>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    `<mlt LC_NUMERIC="C" version="7.0.0" title="${xmlEscape(source.title)}" producer="tractor0">`,
    `  <profile description="${width}x${height} ${r.num}/${r.den} fps" width="${width}" height="${height}" progressive="1" sample_aspect_num="1" sample_aspect_den="1" display_aspect_num="${width / g}" display_aspect_den="${height / g}" frame_rate_num="${r.num}" frame_rate_den="${r.den}" colorspace="709"/>`,
    `  <producer id="producer0" in="0" out="${Math.max(0, sourceFrames - 1)}">`,
    // MLT resolves a bare name beside the project file
    `    <property name="resource">${xmlEscape(source.fileName)}</property>`,
    '    <property name="mlt_service">avformat</property>',
    ...(source.fullRange ? ['    <property name="set.force_full_luma">1</property>', '    <property name="color_range">pc</property>'] : []),
    '  </producer>',
    '  <playlist id="playlist0">',
    ...entries,
    '  </playlist>',
    '  <tractor id="tractor0">',
    '    <track producer="playlist0"/>',
    '  </tractor>',
    '</mlt>',
    '',
  ].join('\n');
}
