#!/bin/sh
# Entry point of the WordCut web image: writes the run-time configuration, then runs nginx.
#
#   GATEWAY_UPSTREAM        host:port of the gateway that /api/ is proxied to (default gateway:3000)
#   REMOTE_<NAME>_URL       where the shell loads a remote from (NAME = EDITOR, KEYCLIPS, PUBLISH,
#                           ANALYTICS): its mf-manifest.json, remoteEntry.js or base URL, absolute or
#                           relative to the shell's origin (default /remotes/<name>/mf-manifest.json,
#                           served by this same image)
#   NGINX_WORKER_PROCESSES  default 2 ("auto" = one per CPU the host has, not per CPU of the limit)
#
# Everything is written under /tmp/wordcut-web, so the root file system may be read-only.
set -eu

RUNTIME=/tmp/wordcut-web
mkdir -p "$RUNTIME/conf" "$RUNTIME/html"

GATEWAY_UPSTREAM="${GATEWAY_UPSTREAM:-gateway:3000}"
case "$GATEWAY_UPSTREAM" in
  '' | *[!A-Za-z0-9.:_-]*)
    echo "wordcut-web: GATEWAY_UPSTREAM must be host:port, got '$GATEWAY_UPSTREAM'" >&2
    exit 1
    ;;
esac

NGINX_WORKER_PROCESSES="${NGINX_WORKER_PROCESSES:-2}"
case "$NGINX_WORKER_PROCESSES" in
  auto | [1-9] | [1-9][0-9]) ;;
  *)
    echo "wordcut-web: NGINX_WORKER_PROCESSES must be a number or auto, got '$NGINX_WORKER_PROCESSES'" >&2
    exit 1
    ;;
esac

printf 'worker_processes %s;\n' "$NGINX_WORKER_PROCESSES" > "$RUNTIME/conf/main.conf"
printf 'upstream wordcut_gateway {\n    server %s;\n    keepalive 16;\n}\n' "$GATEWAY_UPSTREAM" > "$RUNTIME/conf/upstream.conf"

# "..." with backslashes and double quotes escaped
json_string() {
  printf '"%s"' "$(printf '%s' "$1" | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g')"
}

# The remote names the shell knows (REMOTE_NAMES in libs/ui/src/remote.ts).
{
  printf '{'
  sep=''
  for name in editor keyclips publish analytics; do
    var="REMOTE_$(printf '%s' "$name" | tr 'a-z' 'A-Z')_URL"
    eval "value=\${$var:-}"
    [ -n "$value" ] || value="/remotes/$name/mf-manifest.json"
    printf '%s\n  %s: %s' "$sep" "$(json_string "$name")" "$(json_string "$value")"
    sep=','
  done
  printf '\n}\n'
} > "$RUNTIME/html/remotes.json.tmp"
mv "$RUNTIME/html/remotes.json.tmp" "$RUNTIME/html/remotes.json"

echo "wordcut-web: /api/ -> $GATEWAY_UPSTREAM; remotes.json: $(tr -d ' \n' < "$RUNTIME/html/remotes.json")"

exec "$@"
