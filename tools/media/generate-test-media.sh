#!/usr/bin/env bash
# Generates WordCut's test media with ffmpeg + espeak-ng only (no network, no fonts):
#   demo.mp4  ~30 s 1280x720 H.264 + AAC, faststart. The audio is espeak-ng reading seven English
#             sentences (with fillers "um"/"uh" and pauses, one of 2 s); the picture is a dark background,
#             a moving testsrc2 panel and a bottom band whose colour tells which sentence is playing
#             (grey during pauses), so cuts can be checked by sampling a pixel.
#   demo.vtt  WebVTT captions of those sentences, cue times measured from each sentence's wav.
#   tiny.mp4  ~2 s 320x240 H.264 + AAC (speech) for fast tests.
#   talk.mp4  ~22 s 640x360 H.264 + AAC: a synthesised talk with pauses of known position and length
#             (dead air at the start and end, pauses between sentences, one after a question, one in
#             the middle of a sentence after "um"). Every spoken fragment is espeak-ng without its final
#             pause, trimmed to its first and last sample of sound, so each pause's true edges are where
#             the generated silence starts and ends.
#   talk.vtt  word-level WebVTT of the talk (one cue per word): fragment edges exact, words inside a
#             fragment timed in proportion to each word spoken alone.
#   talk.pauses.json  the truth: duration, every pause (start, end, expected type), the fragments.
#   lesson.mp4  ~80 s 320x180 H.264 + AAC: a synthesised lesson for key moments: flat sentences, a
#             numbered list of four steps, more flat sentences, a short aphorism, more flat sentences;
#             each sentence espeak-ng trimmed to its sound, 0.6 s between sentences.
#   lesson.vtt  word-level WebVTT of the lesson (one cue per word): sentence edges exact, words inside
#             a sentence timed in proportion to their letters.
#   lesson.json  the truth: duration and every sentence (start, end, text, kind: flat, step, quote).
#
# usage: tools/media/generate-test-media.sh [OUTPUT_DIR (default <repo>/.data/media)] [--force]
# Idempotent: when the outputs exist and were made by this version of the script, it does nothing.
# Outputs are also kept in a machine-wide cache (WORDCUT_MEDIA_CACHE, default ~/.cache/wordcut/test-media;
# empty: none) under a key of this script and the ffmpeg and espeak-ng versions, so a new checkout
# copies them instead of synthesising them again; --force bypasses it (remove the cache to reset it).
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
OUT="$REPO_ROOT/.data/media"
FORCE=0
for arg in "$@"; do
  case "$arg" in
    --force) FORCE=1 ;;
    -h|--help) sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "unknown option: $arg" >&2; exit 2 ;;
    *) OUT="$arg" ;;
  esac
done

for bin in ffmpeg ffprobe espeak-ng awk sha256sum; do
  command -v "$bin" >/dev/null 2>&1 || { echo "generate-test-media: '$bin' is required but not installed" >&2; exit 1; }
done

mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
STAMP="$OUT/.test-media.stamp"
SCRIPT_HASH="$(sha256sum "${BASH_SOURCE[0]}" | cut -d' ' -f1)"

human() { awk -v b="$1" 'BEGIN { if (b >= 1048576) printf "%.2f MB", b/1048576; else printf "%.1f KB", b/1024 }'; }
duration_of() { ffprobe -v error -show_entries format=duration -of default=noprint_wrappers=1:nokey=1 "$1"; }
report() {
  local f
  for f in demo.mp4 demo.vtt tiny.mp4 talk.mp4 talk.vtt talk.pauses.json lesson.mp4 lesson.vtt lesson.json; do
    local size; size=$(stat -c %s "$OUT/$f")
    case "$f" in
      *.mp4) printf '  %-16s %9s  %6.2f s  %s\n' "$f" "$(human "$size")" "$(duration_of "$OUT/$f")" \
               "$(ffprobe -v error -select_streams v:0 -show_entries stream=codec_name,width,height,r_frame_rate -of csv=p=0 "$OUT/$f") + $(ffprobe -v error -select_streams a:0 -show_entries stream=codec_name,sample_rate -of csv=p=0 "$OUT/$f")" ;;
      talk.pauses.json) printf '  %-16s %9s  %d pauses\n' "$f" "$(human "$size")" "$(grep -c '"type"' "$OUT/$f")" ;;
      *.json) printf '  %-16s %9s  %d sentences\n' "$f" "$(human "$size")" "$(grep -c '"kind"' "$OUT/$f")" ;;
      *) printf '  %-16s %9s  %d cues\n' "$f" "$(human "$size")" "$(grep -c -- '-->' "$OUT/$f")" ;;
    esac
  done
}

if [[ $FORCE -eq 0 && -f "$OUT/demo.mp4" && -f "$OUT/demo.vtt" && -f "$OUT/tiny.mp4" && -f "$OUT/talk.mp4" && -f "$OUT/talk.vtt" \
      && -f "$OUT/talk.pauses.json" && -f "$OUT/lesson.mp4" && -f "$OUT/lesson.vtt" && -f "$OUT/lesson.json" && -f "$STAMP" ]] \
   && [[ "$(cat "$STAMP")" == "$SCRIPT_HASH" ]]; then
  echo "test media in $OUT is up to date (use --force to regenerate):"
  report
  exit 0
fi

OUTPUTS=(demo.mp4 demo.vtt tiny.mp4 talk.mp4 talk.vtt talk.pauses.json lesson.mp4 lesson.vtt lesson.json)
CACHE_ROOT="${WORDCUT_MEDIA_CACHE-$HOME/.cache/wordcut/test-media}"
CACHE=""
if [[ -n "$CACHE_ROOT" ]]; then
  CACHE_KEY="$(printf '%s\n%s\n%s\n' "$SCRIPT_HASH" "$(ffmpeg -version | head -1)" "$(espeak-ng --version)" | sha256sum | cut -c1-32)"
  CACHE="$CACHE_ROOT/$CACHE_KEY"
fi
cached=1
for f in "${OUTPUTS[@]}"; do [[ -n "$CACHE" && -f "$CACHE/$f" ]] || cached=0; done
if [[ $FORCE -eq 0 && $cached -eq 1 ]]; then
  cp -f "${OUTPUTS[@]/#/$CACHE/}" "$OUT/"
  echo "$SCRIPT_HASH" > "$STAMP"
  echo "test media in $OUT copied from the cache $CACHE:"
  report
  exit 0
fi

WORK="$(mktemp -d "$OUT/.work.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

FF=(ffmpeg -hide_banner -nostdin -loglevel error -y)
VOICE=(espeak-ng -v en-us -s 170 -a 140)
RATE=22050 # espeak-ng's output rate; silences use it too so the concat demuxer can join them losslessly.

# sentence|pause after it (s). Fillers and pauses are deliberate: filler and silence detection test on them.
SENTENCES=(
  "Hi, and welcome to WordCut.|0.6"
  "Um, today I will show you how to edit a video by editing its text.|0.7"
  "Every word is linked to its moment in the recording.|2.0"
  "So, uh, if you delete a word, that piece of video is cut.|0.6"
  "You can also, um, remove all the filler words at once.|1.0"
  "Long pauses can be shortened too.|0.5"
  "Thanks for watching, and, uh, happy editing!|0.0"
)
LEAD_IN=0.5
TARGET=30.0
# Bottom-band colour per sentence (pauses stay grey).
COLOURS=(0xe63946 0xf4a261 0x2a9d8f 0x457b9d 0x8338ec 0xffbe0b 0x06d6a0)

silence() { # silence <seconds> <file>
  "${FF[@]}" -f lavfi -i "anullsrc=r=$RATE:cl=mono" -t "$1" -c:a pcm_s16le "$2"
}

ts() { # seconds -> HH:MM:SS.mmm
  awk -v s="$1" 'BEGIN { ms = int(s * 1000 + 0.5); printf "%02d:%02d:%02d.%03d", int(ms/3600000), int(ms/60000)%60, int(ms/1000)%60, ms%1000 }'
}

# --- demo audio: lead-in, sentences and pauses, laid out in order --------------------------------
LIST="$WORK/concat.txt"
: > "$LIST"
silence "$LEAD_IN" "$WORK/lead.wav"
echo "file '$WORK/lead.wav'" >> "$LIST"
cursor=$LEAD_IN
VTT="$WORK/demo.vtt"
printf 'WEBVTT\n\n' > "$VTT"
BANDS=""
i=0
for entry in "${SENTENCES[@]}"; do
  text="${entry%|*}"
  pause="${entry##*|}"
  wav="$WORK/s$i.wav"
  "${VOICE[@]}" -w "$wav" "$text"
  d="$(duration_of "$wav")"
  start=$cursor
  end=$(awk -v a="$start" -v b="$d" 'BEGIN { printf "%.3f", a + b }')
  printf '%d\n%s --> %s\n%s\n\n' "$((i + 1))" "$(ts "$start")" "$(ts "$end")" "$text" >> "$VTT"
  BANDS+=",drawbox=x=0:y=600:w=1280:h=120:color=${COLOURS[$i]}:t=fill:enable='between(t,$start,$end)'"
  echo "file '$wav'" >> "$LIST"
  if awk -v p="$pause" 'BEGIN { exit !(p > 0) }'; then
    silence "$pause" "$WORK/p$i.wav"
    echo "file '$WORK/p$i.wav'" >> "$LIST"
  fi
  cursor=$(awk -v a="$end" -v p="$pause" 'BEGIN { printf "%.3f", a + p }')
  i=$((i + 1))
done
# Trailing silence up to the target length (at least 0.5 s so the last word is not clipped).
tail_s=$(awk -v t="$TARGET" -v c="$cursor" 'BEGIN { r = t - c; if (r < 0.5) r = 0.5; printf "%.3f", r }')
silence "$tail_s" "$WORK/tail.wav"
echo "file '$WORK/tail.wav'" >> "$LIST"
"${FF[@]}" -f concat -safe 0 -i "$LIST" -c:a pcm_s16le "$WORK/speech.wav"
total="$(duration_of "$WORK/speech.wav")"

# --- demo video -------------------------------------------------------------------------------
"${FF[@]}" \
  -f lavfi -i "color=c=0x1b2433:size=1280x720:rate=30" \
  -f lavfi -i "testsrc2=size=480x270:rate=30" \
  -f lavfi -i "color=c=0x555555:size=1280x120:rate=30" \
  -i "$WORK/speech.wav" \
  -filter_complex "[0][1]overlay=x=400:y=180:shortest=1[bg];[bg][2]overlay=x=0:y=600:shortest=1${BANDS},format=yuv420p[v]" \
  -map "[v]" -map 3:a -t "$total" \
  -c:v libx264 -preset veryfast -crf 28 -g 60 -profile:v high \
  -c:a aac -ar 44100 -ac 2 -b:a 96k \
  -movflags +faststart -metadata title="WordCut demo" \
  "$WORK/demo.mp4"

# --- tiny ---------------------------------------------------------------------------------------
"${VOICE[@]}" -w "$WORK/tiny.wav" "Hello, this is a tiny test."
"${FF[@]}" \
  -f lavfi -i "testsrc2=size=320x240:rate=25" \
  -i "$WORK/tiny.wav" \
  -filter_complex "[1:a]apad,atrim=0:2[a]" -map 0:v -map "[a]" -t 2 \
  -c:v libx264 -preset veryfast -crf 30 -pix_fmt yuv420p -g 25 \
  -c:a aac -ar 44100 -ac 1 -b:a 64k \
  -movflags +faststart \
  "$WORK/tiny.mp4"

# --- talk: pauses of known position and length --------------------------------------------------
# gap|<seconds>|<the pause type the analysis should give>  or  say|<text spoken without a break>
TALK=(
  "gap|2.0|technical"
  "say|Welcome back to the channel."
  "gap|0.8|natural"
  "say|Today we look at three ways to speed up your editing."
  "gap|0.9|natural"
  "say|The first one is, um,"
  "gap|1.4|awkward"
  "say|cutting the pauses that nobody needs."
  "gap|0.8|natural"
  "say|Why does that matter?"
  "gap|1.6|dramatic"
  "say|Because every second counts."
  "gap|0.7|natural"
  "say|Thanks for watching."
  "gap|2.5|technical"
)
TRIM="silenceremove=start_periods=1:start_threshold=-90dB:detection=peak,areverse,silenceremove=start_periods=1:start_threshold=-90dB:detection=peak,areverse"
spoken() { # spoken <text> <wav>: espeak-ng without the final pause, trimmed to its sound
  "${VOICE[@]}" -z -w "$2.raw.wav" "$1"
  "${FF[@]}" -i "$2.raw.wav" -af "$TRIM" -c:a pcm_s16le "$2"
  rm -f "$2.raw.wav"
}
TLIST="$WORK/talk-concat.txt"
: > "$TLIST"
TVTT="$WORK/talk.vtt"
printf 'WEBVTT\n\n' > "$TVTT"
PAUSES=""
FRAGMENTS=""
tcursor=0
k=0
for entry in "${TALK[@]}"; do
  IFS='|' read -r kind a b <<< "$entry"
  wav="$WORK/t$k.wav"
  if [[ "$kind" == gap ]]; then
    silence "$a" "$wav"
    d="$(duration_of "$wav")"
    end=$(awk -v c="$tcursor" -v d="$d" 'BEGIN { printf "%.6f", c + d }')
    PAUSES+="${PAUSES:+,}"$'\n'"    {\"start\": $tcursor, \"end\": $end, \"type\": \"$b\"}"
  else
    spoken "$a" "$wav"
    d="$(duration_of "$wav")"
    end=$(awk -v c="$tcursor" -v d="$d" 'BEGIN { printf "%.6f", c + d }')
    FRAGMENTS+="${FRAGMENTS:+,}"$'\n'"    {\"start\": $tcursor, \"end\": $end, \"text\": \"$a\"}"
    # word times: the fragment's span shared in proportion to each word spoken alone
    read -r -a words <<< "$a"
    lens=()
    for w in "${words[@]}"; do
      spoken "$w" "$WORK/w.wav"
      lens+=("$(duration_of "$WORK/w.wav")")
    done
    awk -v c="$tcursor" -v d="$d" -v lens="${lens[*]}" -v text="$a" '
      function ts(s,  ms) { ms = int(s * 1000 + 0.5); return sprintf("%02d:%02d:%02d.%03d", int(ms/3600000), int(ms/60000)%60, int(ms/1000)%60, ms%1000) }
      BEGIN {
        n = split(lens, L, " "); split(text, W, " "); total = 0
        for (i = 1; i <= n; i++) total += L[i]
        t = c
        for (i = 1; i <= n; i++) {
          e = (i == n) ? c + d : t + d * L[i] / total
          printf "%s --> %s\n%s\n\n", ts(t), ts(e), W[i]
          t = e
        }
      }' >> "$TVTT"
  fi
  echo "file '$wav'" >> "$TLIST"
  tcursor=$end
  k=$((k + 1))
done
"${FF[@]}" -f concat -safe 0 -i "$TLIST" -c:a pcm_s16le "$WORK/talk.wav"
talk_total="$(duration_of "$WORK/talk.wav")"
printf '{\n  "file": "talk.mp4",\n  "duration": %s,\n  "pauses": [%s\n  ],\n  "fragments": [%s\n  ]\n}\n' "$talk_total" "$PAUSES" "$FRAGMENTS" > "$WORK/talk.pauses.json"
"${FF[@]}" \
  -f lavfi -i "color=c=0x1b2433:size=640x360:rate=30" \
  -f lavfi -i "testsrc2=size=240x136:rate=30" \
  -i "$WORK/talk.wav" \
  -filter_complex "[0][1]overlay=x=200:y=112:shortest=1,format=yuv420p[v]" \
  -map "[v]" -map 2:a -t "$talk_total" \
  -c:v libx264 -preset veryfast -crf 30 -g 60 \
  -c:a aac -ar 44100 -ac 2 -b:a 96k \
  -movflags +faststart \
  "$WORK/talk.mp4"

# --- lesson: sentences written to be flat, step-by-step or quotable -------------------------------
# <kind>|<sentence>
LESSON=(
  "flat|Our office moved to a new building on the north side of town last spring."
  "flat|The new rooms have grey carpets and a long row of windows along one wall."
  "flat|Most of the team arrives at about nine and leaves a little after five."
  "flat|The kitchen is on the second floor next to the small meeting room."
  "step|First, open the project folder and find the file called settings."
  "step|Second, change the output format to the one your editor expects."
  "step|Third, save the file and close every other program you have open."
  "step|Finally, start the export and wait until the progress bar is full."
  "flat|The printer in the corridor was replaced by a newer model in the autumn."
  "flat|There is a bicycle rack behind the building and a car park in front of it."
  "flat|The lifts were repaired in the summer and now work on every floor."
  "quote|Small habits shape great work."
  "flat|The building also has a reception desk that opens at eight every morning."
  "flat|Visitors usually sign in there and wait on the sofas near the door."
  "flat|The cleaners come in the evening after most people have gone home."
)
LLIST="$WORK/lesson-concat.txt"
: > "$LLIST"
LVTT="$WORK/lesson.vtt"
printf 'WEBVTT\n\n' > "$LVTT"
SENTENCES=""
lcursor=0
k=0
for entry in "${LESSON[@]}"; do
  IFS='|' read -r kind text <<< "$entry"
  wav="$WORK/l$k.wav"
  spoken "$text" "$wav"
  d="$(duration_of "$wav")"
  end=$(awk -v c="$lcursor" -v d="$d" 'BEGIN { printf "%.6f", c + d }')
  SENTENCES+="${SENTENCES:+,}"$'\n'"    {\"start\": $lcursor, \"end\": $end, \"kind\": \"$kind\", \"text\": \"$text\"}"
  # word times: the sentence's span shared in proportion to each word's letters
  awk -v c="$lcursor" -v d="$d" -v text="$text" '
    function ts(s,  ms) { ms = int(s * 1000 + 0.5); return sprintf("%02d:%02d:%02d.%03d", int(ms/3600000), int(ms/60000)%60, int(ms/1000)%60, ms%1000) }
    BEGIN {
      n = split(text, W, " "); total = 0
      for (i = 1; i <= n; i++) total += length(W[i]) + 1
      t = c
      for (i = 1; i <= n; i++) {
        e = (i == n) ? c + d : t + d * (length(W[i]) + 1) / total
        printf "%s --> %s\n%s\n\n", ts(t), ts(e), W[i]
        t = e
      }
    }' >> "$LVTT"
  echo "file '$wav'" >> "$LLIST"
  gap="$WORK/lg$k.wav"
  silence 0.6 "$gap"
  echo "file '$gap'" >> "$LLIST"
  lcursor=$(awk -v e="$end" -v g="$(duration_of "$gap")" 'BEGIN { printf "%.6f", e + g }')
  k=$((k + 1))
done
"${FF[@]}" -f concat -safe 0 -i "$LLIST" -c:a pcm_s16le "$WORK/lesson.wav"
lesson_total="$(duration_of "$WORK/lesson.wav")"
printf '{\n  "file": "lesson.mp4",\n  "duration": %s,\n  "sentences": [%s\n  ]\n}\n' "$lesson_total" "$SENTENCES" > "$WORK/lesson.json"
"${FF[@]}" \
  -f lavfi -i "color=c=0x23331b:size=320x180:rate=15" \
  -i "$WORK/lesson.wav" \
  -map 0:v -map 1:a -t "$lesson_total" \
  -c:v libx264 -preset veryfast -crf 32 -g 150 -pix_fmt yuv420p \
  -c:a aac -ar 44100 -ac 1 -b:a 64k \
  -movflags +faststart \
  "$WORK/lesson.mp4"

for f in demo.mp4 tiny.mp4 talk.mp4 lesson.mp4; do
  size=$(stat -c %s "$WORK/$f")
  if (( size > 3 * 1024 * 1024 )); then
    echo "generate-test-media: $f is $(human "$size"), over the 3 MB budget" >&2
    exit 1
  fi
done

if [[ -n "$CACHE" ]]; then
  # filled beside and renamed into place, so a reader never sees half a set
  mkdir -p "$CACHE_ROOT"
  FILL="$(mktemp -d "$CACHE_ROOT/.fill.XXXXXX")"
  cp -f "${OUTPUTS[@]/#/$WORK/}" "$FILL/"
  mv -T "$FILL" "$CACHE" 2>/dev/null || rm -rf "$FILL"
fi
mv -f "${OUTPUTS[@]/#/$WORK/}" "$OUT/"
echo "$SCRIPT_HASH" > "$STAMP"
echo "generated test media in $OUT (speech ${cursor}s of ${total}s):"
report
