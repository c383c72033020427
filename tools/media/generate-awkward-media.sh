#!/usr/bin/env bash
# Generates small awkward real-world media (each <= 1 MB, ~3.5 s) with ffmpeg + espeak-ng only, for
# ingest tests. All videos with audio carry the same speech: 1 s of silence, then espeak-ng saying
# SPEECH below, then silence up to 3.5 s.
#   rotated.mp4    H.264 320x180 stored, 90° display matrix (a phone held upright): shown 180x320
#   odd.mp4        H.264 High 4:4:4 (yuv444p) 321x241: odd size, not playable in browsers
#   vfr.mp4        H.264 320x240 with a variable frame rate (30 fps for 1 s, then 10 fps)
#   hevc.mp4       HEVC (libx265, hvc1) 320x240: needs a browser proxy
#   noaudio.mp4    H.264 320x240 without an audio track
#   moov-end.mp4   H.264 320x240, index (moov) after the media data (not faststart)
#   truncated.mp4  the first 60% of moov-end.mp4 (an interrupted upload: no index at all)
#   obs.mkv        H.264 + Opus 320x240 in Matroska, as OBS records
#   screen.webm    VP9 + Opus 320x240 in WebM with unknown sizes, as a browser's MediaRecorder writes
#   fake.mp4       a text file named like a video
#   awkward.vtt    WebVTT captions of the speech (cue measured from the speech wav)
#   garbage.vtt    a text file that is not WebVTT
#
# usage: tools/media/generate-awkward-media.sh [OUTPUT_DIR (default <repo>/.data/media/awkward)] [--force]
# Idempotent: when the outputs exist and were made by this version of the script, it does nothing.
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
OUT="$REPO_ROOT/.data/media/awkward"
FORCE=0
for arg in "$@"; do
  case "$arg" in
    --force) FORCE=1 ;;
    -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "unknown option: $arg" >&2; exit 2 ;;
    *) OUT="$arg" ;;
  esac
done

for bin in ffmpeg ffprobe espeak-ng awk sha256sum head stat grep; do
  command -v "$bin" >/dev/null 2>&1 || { echo "generate-awkward-media: '$bin' is required but not installed" >&2; exit 1; }
done
# (grep reads everything: with -q it would close the pipe early and pipefail would see SIGPIPE)
ffmpeg -hide_banner -encoders 2>/dev/null | grep libx265 >/dev/null \
  || { echo "generate-awkward-media: this ffmpeg has no libx265 encoder (needed for hevc.mp4)" >&2; exit 1; }

FILES=(rotated.mp4 odd.mp4 vfr.mp4 hevc.mp4 noaudio.mp4 moov-end.mp4 truncated.mp4 obs.mkv screen.webm fake.mp4 awkward.vtt garbage.vtt)
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
STAMP="$OUT/.awkward-media.stamp"
SCRIPT_HASH="$(sha256sum "${BASH_SOURCE[0]}" | cut -d' ' -f1)"

all_present() {
  local f
  for f in "${FILES[@]}"; do [[ -f "$OUT/$f" ]] || return 1; done
}
report() {
  local f
  for f in "${FILES[@]}"; do
    local desc
    desc=$(ffprobe -v error -select_streams v:0 -show_entries stream=codec_name,width,height,pix_fmt -of csv=p=0 "$OUT/$f" 2>/dev/null || true)
    printf '  %-14s %8d bytes  %s\n' "$f" "$(stat -c %s "$OUT/$f")" "${desc:-(no video)}"
  done
}

if [[ $FORCE -eq 0 && -f "$STAMP" ]] && all_present && [[ "$(cat "$STAMP")" == "$SCRIPT_HASH" ]]; then
  echo "awkward media in $OUT is up to date (use --force to regenerate):"
  report
  exit 0
fi

WORK="$(mktemp -d "$OUT/.work.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

FF=(ffmpeg -hide_banner -nostdin -loglevel error -y)
SPEECH="Hello world, this is WordCut."
LEAD=1.0
TOTAL=3.5
duration_of() { ffprobe -v error -show_entries format=duration -of default=noprint_wrappers=1:nokey=1 "$1"; }
ts() { awk -v s="$1" 'BEGIN { ms = int(s * 1000 + 0.5); printf "%02d:%02d:%02d.%03d", int(ms/3600000), int(ms/60000)%60, int(ms/1000)%60, ms%1000 }'; }

# --- audio: silence, speech, silence -------------------------------------------------------------
espeak-ng -v en-us -s 170 -a 140 -w "$WORK/speech.wav" "$SPEECH"
speech_d="$(duration_of "$WORK/speech.wav")"
"${FF[@]}" -i "$WORK/speech.wav" -af "adelay=$(awk -v l="$LEAD" 'BEGIN { print int(l * 1000) }'),apad" -t "$TOTAL" -ar 44100 -ac 1 -c:a pcm_s16le "$WORK/audio.wav"
speech_end=$(awk -v a="$LEAD" -v b="$speech_d" 'BEGIN { printf "%.3f", a + b }')
printf 'WEBVTT\n\n1\n%s --> %s\n%s\n' "$(ts "$LEAD")" "$(ts "$speech_end")" "$SPEECH" > "$WORK/awkward.vtt"

AAC=(-c:a aac -b:a 64k -ar 44100)
X264=(-c:v libx264 -preset veryfast -crf 30 -g 30)

# --- moov-end: the plain file, no faststart (ffmpeg's mp4 muxer writes the moov last) ----------
"${FF[@]}" -f lavfi -i "testsrc2=size=320x240:rate=30" -i "$WORK/audio.wav" -map 0:v -map 1:a -t "$TOTAL" \
  "${X264[@]}" -pix_fmt yuv420p "${AAC[@]}" "$WORK/moov-end.mp4"

# --- rotated: a landscape-stored picture with a 90° display matrix -------------------------------
"${FF[@]}" -f lavfi -i "testsrc2=size=320x180:rate=30" -i "$WORK/audio.wav" -map 0:v -map 1:a -t "$TOTAL" \
  "${X264[@]}" -pix_fmt yuv420p "${AAC[@]}" -movflags +faststart "$WORK/plain-rotated.mp4"
if ffmpeg -hide_banner -h full 2>/dev/null | grep -- '-display_rotation' >/dev/null; then
  # ffmpeg >= 6: the input option, counter-clockwise degrees
  "${FF[@]}" -display_rotation:v:0 -90 -i "$WORK/plain-rotated.mp4" -c copy -movflags +faststart "$WORK/rotated.mp4"
else
  # ffmpeg 5: the mov muxer turns a clockwise `rotate` tag into the display matrix
  "${FF[@]}" -i "$WORK/plain-rotated.mp4" -c copy -metadata:s:v:0 rotate=90 -movflags +faststart "$WORK/rotated.mp4"
fi

# --- odd: 321x241 4:4:4 (x264 cannot do odd sizes in 4:2:0, and browsers do not play 4:4:4) ----
"${FF[@]}" -f lavfi -i "testsrc2=size=320x240:rate=25" -i "$WORK/audio.wav" -map 0:v -map 1:a -t "$TOTAL" -vf scale=321:241 \
  "${X264[@]}" -pix_fmt yuv444p "${AAC[@]}" -movflags +faststart "$WORK/odd.mp4"

# --- vfr: 30 fps during the first second, every third frame after it ------------------------------
"${FF[@]}" -f lavfi -i "testsrc2=size=320x240:rate=30" -i "$WORK/audio.wav" -map 0:v -map 1:a -t "$TOTAL" \
  -vf "select='lt(t\,1)+not(mod(n\,3))'" -fps_mode vfr \
  "${X264[@]}" -pix_fmt yuv420p "${AAC[@]}" -movflags +faststart "$WORK/vfr.mp4"

# --- hevc -------------------------------------------------------------------------------------------
"${FF[@]}" -f lavfi -i "testsrc2=size=320x240:rate=30" -i "$WORK/audio.wav" -map 0:v -map 1:a -t "$TOTAL" \
  -c:v libx265 -preset ultrafast -crf 32 -x265-params log-level=error -tag:v hvc1 -pix_fmt yuv420p \
  "${AAC[@]}" -movflags +faststart "$WORK/hevc.mp4"

# --- noaudio ------------------------------------------------------------------------------------
"${FF[@]}" -f lavfi -i "testsrc2=size=320x240:rate=30" -t "$TOTAL" \
  "${X264[@]}" -pix_fmt yuv420p -movflags +faststart "$WORK/noaudio.mp4"

# --- obs.mkv, screen.webm: recordings in Matroska and WebM ------------------------------------------
"${FF[@]}" -f lavfi -i "testsrc2=size=320x240:rate=30" -i "$WORK/audio.wav" -map 0:v -map 1:a -t "$TOTAL" \
  "${X264[@]}" -pix_fmt yuv420p -c:a libopus -b:a 48k -ar 48000 "$WORK/obs.mkv"
# live mode: the Segment and every Cluster of unknown size, no cues (what a browser's recorder writes)
"${FF[@]}" -f lavfi -i "testsrc2=size=320x240:rate=30" -i "$WORK/audio.wav" -map 0:v -map 1:a -t "$TOTAL" \
  -c:v libvpx-vp9 -deadline realtime -cpu-used 8 -b:v 300k -g 30 -pix_fmt yuv420p -c:a libopus -b:a 48k -ar 48000 -live 1 -f webm "$WORK/screen.webm"

# --- truncated, fake, garbage -----------------------------------------------------------------------
size=$(stat -c %s "$WORK/moov-end.mp4")
head -c "$((size * 60 / 100))" "$WORK/moov-end.mp4" > "$WORK/truncated.mp4"
printf 'This is not a video.\nIt is a text file somebody named fake.mp4.\n' > "$WORK/fake.mp4"
printf 'Meeting notes, not captions\n\n1\nhello --> there\n<b>garbage</b>\n' > "$WORK/garbage.vtt"

# --- checks: every file is what its name promises ---------------------------------------------------
fail() { echo "generate-awkward-media: $*" >&2; exit 1; }
moov_at=$(grep -boa moov "$WORK/moov-end.mp4" | head -1 | cut -d: -f1)
mdat_at=$(grep -boa mdat "$WORK/moov-end.mp4" | head -1 | cut -d: -f1)
(( moov_at > mdat_at )) || fail "moov-end.mp4 has its moov before the mdat"
rot=$(ffprobe -v error -select_streams v:0 -show_entries side_data=rotation -of default=noprint_wrappers=1:nokey=1 "$WORK/rotated.mp4" | head -1)
[[ "${rot#-}" == "90" ]] || fail "rotated.mp4 has no 90° display matrix (got '${rot}')"
[[ "$(ffprobe -v error -select_streams v:0 -show_entries stream=codec_name -of csv=p=0 "$WORK/hevc.mp4")" == hevc ]] || fail "hevc.mp4 is not HEVC"
[[ -z "$(ffprobe -v error -select_streams a -show_entries stream=index -of csv=p=0 "$WORK/noaudio.mp4")" ]] || fail "noaudio.mp4 has audio"
! ffprobe -v error "$WORK/truncated.mp4" >/dev/null 2>&1 || fail "truncated.mp4 is still readable"
[[ "$(ffprobe -v error -select_streams v:0 -show_entries stream=width,height -of csv=p=0 "$WORK/odd.mp4")" == 321,241 ]] || fail "odd.mp4 is not 321x241"
[[ "$(ffprobe -v error -show_entries stream=codec_name -of csv=p=0 "$WORK/obs.mkv" | tr '\n' ' ')" == "h264 opus " ]] || fail "obs.mkv is not H.264 + Opus"
[[ "$(ffprobe -v error -show_entries stream=codec_name -of csv=p=0 "$WORK/screen.webm" | tr '\n' ' ')" == "vp9 opus " ]] || fail "screen.webm is not VP9 + Opus"
for f in "${FILES[@]}"; do
  s=$(stat -c %s "$WORK/$f")
  (( s <= 1024 * 1024 )) || fail "$f is $s bytes, over the 1 MB budget"
done

for f in "${FILES[@]}"; do mv -f "$WORK/$f" "$OUT/$f"; done
echo "$SCRIPT_HASH" > "$STAMP"
echo "generated awkward media in $OUT (speech $LEAD s .. $speech_end s of $TOTAL s):"
report
