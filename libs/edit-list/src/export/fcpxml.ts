/**
 * FCPXML 1.10 (Final Cut Pro; Resolve and Premiere read it): one format and one asset (the
 * original), a project whose spine holds one asset-clip per piece. Every time is a whole number
 * of frames written as a fraction of the rate ('1001/30000s', '2/25s'); a muted piece carries
 * adjust-volume at its level's gain in dB (-96 dB for silence).
 */
import { rateValue, xmlEscape, type ExportSource, type Rate, type TimelinePiece } from './timeline';

/** `frames` frames at `rate` as an FCPXML time: '0s', else 'N*den/nums'. */
export function fcpTime(frames: number, rate: Rate): string {
  if (frames === 0) return '0s';
  return `${frames * rate.den}/${rate.num}s`;
}

/** A gain as FCPXML writes it: decibels, -96 dB for silence. */
export function gainDb(gain: number): string {
  if (gain <= 0) return '-96dB';
  return `${(Math.round(2000 * Math.log10(gain)) / 100).toString()}dB`;
}

function formatName(source: ExportSource): string {
  const fps = rateValue(source.rate);
  const label = Number.isInteger(fps) ? String(fps) : (Math.round(fps * 100) / 100).toString().replace('.', '');
  return source.height ? `FFVideoFormat${source.height}p${label}` : 'FFVideoFormatRateUndefined';
}

export function writeFcpxml(source: ExportSource, pieces: readonly TimelinePiece[]): string {
  const r = source.rate;
  const sourceFrames = Math.round((source.durationSec * r.num) / r.den);
  const total = pieces.reduce((n, p) => n + (p.srcOut - p.srcIn), 0);
  const tcFormat = r.den === 1001 && (r.num === 30000 || r.num === 60000) ? 'DF' : 'NDF';
  const name = xmlEscape(source.title);
  const size = source.width && source.height ? ` width="${source.width}" height="${source.height}"` : '';
  const clips = pieces.map((p) => {
    const attrs = `ref="r2" offset="${fcpTime(p.recIn, r)}" name="${xmlEscape(source.fileName)}" start="${fcpTime(p.srcIn, r)}" duration="${fcpTime(p.srcOut - p.srcIn, r)}" tcFormat="${tcFormat}"`;
    return p.gain < 1 ? `          <asset-clip ${attrs}>\n            <adjust-volume amount="${gainDb(p.gain)}"/>\n          </asset-clip>` : `          <asset-clip ${attrs}/>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE fcpxml>',
    '<fcpxml version="1.10">',
    '  <resources>',
    `    <format id="r1" name="${formatName(source)}" frameDuration="${fcpTime(1, r)}"${size}/>`,
    `    <asset id="r2" name="${xmlEscape(source.fileName)}" start="0s" duration="${fcpTime(sourceFrames, r)}" hasVideo="1" hasAudio="${source.hasAudio ? 1 : 0}" format="r1"${source.hasAudio ? ' audioSources="1" audioChannels="2" audioRate="48000"' : ''}>`,
    `      <media-rep kind="original-media" src="${xmlEscape(source.url)}"/>`,
    '    </asset>',
    '  </resources>',
    '  <library>',
    '    <event name="WordCut">',
    `      <project name="${name}">`,
    `        <sequence format="r1" duration="${fcpTime(total, r)}" tcStart="0s" tcFormat="${tcFormat}" audioLayout="stereo" audioRate="48k">`,
    '          <spine>',
    ...clips.map((c) => `  ${c}`),
    '          </spine>',
    '        </sequence>',
    '      </project>',
    '    </event>',
    '  </library>',
    '</fcpxml>',
    '',
  ].join('\n');
}
