/**
 * FCPXML 1.10 (Final Cut Pro; Resolve and Premiere read it): one format and one asset (the
 * original), and in one event a project per timeline (the edit, then any clips), each a spine of
 * one asset-clip per piece. Every time is a whole number of frames written as a fraction of the
 * rate ('1001/30000s', '2/25s'). A mute is exact to the frame because its piece is its own clip;
 * the clip holds the level with adjust-volume keyframes at its first frame and its end, in the
 * clip's local (source) time as FCPXML measures keyframes, and says the same level in `amount`
 * for readers that skip keyframes (-96 dB for silence).
 */
import { rateValue, xmlEscape, type ExportSource, type NamedTimeline, type Rate, type TimelinePiece } from './timeline';

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

/** A muted piece's volume: its level as the adjustment's amount and as keyframes over the clip. */
function volume(p: TimelinePiece, r: Rate, indent: string): string[] {
  const db = gainDb(p.gain);
  return [
    `${indent}<adjust-volume amount="${db}">`,
    `${indent}  <param name="amount">`,
    `${indent}    <keyframeAnimation>`,
    `${indent}      <keyframe time="${fcpTime(p.srcIn, r)}" value="${db}"/>`,
    `${indent}      <keyframe time="${fcpTime(p.srcOut, r)}" value="${db}"/>`,
    `${indent}    </keyframeAnimation>`,
    `${indent}  </param>`,
    `${indent}</adjust-volume>`,
  ];
}

function project(source: ExportSource, name: string, pieces: readonly TimelinePiece[], tcFormat: string): string[] {
  const r = source.rate;
  const total = pieces.reduce((n, p) => n + (p.srcOut - p.srcIn), 0);
  const indent = '            ';
  const clips = pieces.flatMap((p) => {
    const attrs = `ref="r2" offset="${fcpTime(p.recIn, r)}" name="${xmlEscape(source.fileName)}" start="${fcpTime(p.srcIn, r)}" duration="${fcpTime(p.srcOut - p.srcIn, r)}" tcFormat="${tcFormat}"`;
    return p.gain < 1 ? [`${indent}<asset-clip ${attrs}>`, ...volume(p, r, `${indent}  `), `${indent}</asset-clip>`] : [`${indent}<asset-clip ${attrs}/>`];
  });
  return [
    `      <project name="${xmlEscape(name)}">`,
    `        <sequence format="r1" duration="${fcpTime(total, r)}" tcStart="0s" tcFormat="${tcFormat}" audioLayout="stereo" audioRate="48k">`,
    ...(clips.length > 0 ? ['          <spine>', ...clips, '          </spine>'] : ['          <spine/>']),
    '        </sequence>',
    '      </project>',
  ];
}

export function writeFcpxml(source: ExportSource, pieces: readonly TimelinePiece[], extra: readonly NamedTimeline[] = []): string {
  const r = source.rate;
  const sourceFrames = Math.round((source.durationSec * r.num) / r.den);
  const tcFormat = r.den === 1001 && (r.num === 30000 || r.num === 60000) ? 'DF' : 'NDF';
  const size = source.width && source.height ? ` width="${source.width}" height="${source.height}"` : '';
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
    ...project(source, source.title, pieces, tcFormat),
    ...extra.flatMap((t) => project(source, t.name, t.pieces, tcFormat)),
    '    </event>',
    '  </library>',
    '</fcpxml>',
    '',
  ].join('\n');
}
