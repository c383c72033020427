#!/bin/sh
# Entry point of the WordCut web image: writes the run-time configuration, then runs nginx.
#
#   GATEWAY_UPSTREAM        host:port of the gateway that /api/ is proxied to (default gateway:3000)
#   REMOTE_<NAME>_URL       where the shell loads a remote from (NAME = EDITOR, KEYCLIPS, PUBLISH,
#                           ANALYTICS): its mf-manifest.json, remoteEntry.js or base URL, absolute or
#                           relative to the shell's origin (default /remotes/<name>/mf-manifest.json,
#                           served by this same image)
#   NGINX_WORKER_PROCESSES  default 2 ("auto" = one per CPU the host has, not per CPU of the limit)
#   FRAME_ANCESTORS         the provider's origins allowed to frame the app, space-separated
#                           (scheme://host[:port], the host may start with *.); empty = this origin only.
#                           They go into the Content-Security-Policy: frame-ancestors 'self' <these>
#   EXPORT_UPSTREAM         host:port of the export service: POST /webhooks/provider (the provider's
#                           signed webhooks) is proxied there. Empty = not served (an Ingress routes it)
#
# The origins of absolute REMOTE_<NAME>_URL values are added to the Content-Security-Policy (scripts,
# styles, images, fonts, fetches), so remotes hosted elsewhere still load.
#
# Everything is written under /tmp/wordcut-web, so the root file system may be read-only.
# (WORDCUT_WEB_RUNTIME moves it, for tests of this script only: nginx.conf reads /tmp/wordcut-web.)
set -eu

RUNTIME="${WORDCUT_WEB_RUNTIME:-/tmp/wordcut-web}"
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

EXPORT_UPSTREAM="${EXPORT_UPSTREAM:-}"
case "$EXPORT_UPSTREAM" in
  *[!A-Za-z0-9.:_-]*)
    echo "wordcut-web: EXPORT_UPSTREAM must be host:port or empty, got '$EXPORT_UPSTREAM'" >&2
    exit 1
    ;;
esac

printf 'worker_processes %s;\n' "$NGINX_WORKER_PROCESSES" > "$RUNTIME/conf/main.conf"
printf 'upstream wordcut_gateway {\n    server %s;\n    keepalive 16;\n}\n' "$GATEWAY_UPSTREAM" > "$RUNTIME/conf/upstream.conf"

# POST /webhooks/provider -> the export service, when EXPORT_UPSTREAM names it (included in the
# shell's server block; the security headers of that block apply).
if [ -n "$EXPORT_UPSTREAM" ]; then
  printf 'upstream wordcut_export {\n    server %s;\n    keepalive 4;\n}\n' "$EXPORT_UPSTREAM" >> "$RUNTIME/conf/upstream.conf"
  cat > "$RUNTIME/conf/webhooks.conf" <<'NGINX'
location = /webhooks/provider {
    limit_except POST {
        deny all;
    }
    proxy_pass http://wordcut_export;
    proxy_http_version 1.1;
    proxy_set_header Connection "";
    proxy_set_header Host $host;
    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    proxy_set_header X-Forwarded-Proto $wc_forwarded_proto;
    client_max_body_size 1m;
    proxy_connect_timeout 5s;
    proxy_read_timeout 30s;
}
NGINX
else
  printf '# /webhooks/provider is not served here (EXPORT_UPSTREAM is empty)\n' > "$RUNTIME/conf/webhooks.conf"
fi

# Content-Security-Policy sources (servers.conf): $wc_frame_ancestors and $wc_csp_remotes, each
# empty or " <source> <source>...".
ORIGIN_RE='^https?://(\*\.)?[A-Za-z0-9.-]+(:[0-9]{1,5})?$'
frame_ancestors=''
set -f
for origin in ${FRAME_ANCESTORS:-}; do
  if ! printf '%s' "$origin" | grep -Eq "$ORIGIN_RE"; then
    echo "wordcut-web: FRAME_ANCESTORS must be origins (https://host[:port], host may start with *.) separated by spaces, got '$origin'" >&2
    exit 1
  fi
  frame_ancestors="$frame_ancestors $origin"
done
set +f

# "..." with backslashes and double quotes escaped
json_string() {
  printf '"%s"' "$(printf '%s' "$1" | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g')"
}

# The origin of each remote loaded from elsewhere: http(s)://host[:port]/... or //host[:port]/...
csp_remotes=''
for name in editor keyclips publish analytics; do
  var="REMOTE_$(printf '%s' "$name" | tr 'a-z' 'A-Z')_URL"
  eval "value=\${$var:-}"
  case "$value" in
    http://* | https://*) source=$(printf '%s' "$value" | sed -E 's|^(https?://[^/?#]+).*$|\1|') ;;
    //*) source=$(printf '%s' "$value" | sed -E 's|^//([^/?#]+).*$|\1|') ;;
    *) continue ;;
  esac
  if ! printf '%s' "$source" | grep -Eq '^(https?://)?[A-Za-z0-9.-]+(:[0-9]{1,5})?$'; then
    echo "wordcut-web: $var has an invalid origin '$source'" >&2
    exit 1
  fi
  case " $csp_remotes " in
    *" $source "*) ;;
    *) csp_remotes="$csp_remotes $source" ;;
  esac
done

printf 'map $host $wc_frame_ancestors {\n    default "%s";\n}\nmap $host $wc_csp_remotes {\n    default "%s";\n}\n' \
  "$frame_ancestors" "$csp_remotes" > "$RUNTIME/conf/security.conf"

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

echo "wordcut-web: /api/ -> $GATEWAY_UPSTREAM; /webhooks/provider -> ${EXPORT_UPSTREAM:-(not served)}; frame-ancestors 'self'$frame_ancestors; remotes.json: $(tr -d ' \n' < "$RUNTIME/html/remotes.json")"

exec "$@"
