# syntax=docker/dockerfile:1.7
#
# WordCut web image: the shell and the four Module Federation remotes, built with Nx/Rspack and
# served by nginx as an unprivileged user (build context = repository root).
#
#   docker build -f docker/web.Dockerfile -t wordcut-web .
#   docker run -p 4200:4200 -e GATEWAY_UPSTREAM=gateway:3000 wordcut-web
#
#   :4200       shell (SPA fallback, /api/ -> GATEWAY_UPSTREAM, /remotes.json, /remotes/<name>/)
#   :4201-4204  editor, keyclips, publish, analytics with CORS
#
# /remotes.json is written at start by docker/web/entrypoint.sh from REMOTE_<NAME>_URL (default:
# the same-origin /remotes/<name>/mf-manifest.json), so one image serves every environment.

ARG NODE_IMAGE=node:20-bookworm-slim
ARG NGINX_IMAGE=nginxinc/nginx-unprivileged:1.27-alpine

# ---------------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /app
ENV NPM_CONFIG_UPDATE_NOTIFIER=false \
    NPM_CONFIG_FUND=false \
    NPM_CONFIG_AUDIT=false \
    NX_DAEMON=false \
    NX_NO_CLOUD=true
# The lockfile and every workspace's package.json (same list as docker/service.Dockerfile).
COPY package.json package-lock.json .npmrc ./
COPY libs/contracts/package.json     libs/contracts/
COPY libs/platform/package.json      libs/platform/
COPY libs/messaging/package.json     libs/messaging/
COPY libs/storage/package.json       libs/storage/
COPY libs/ffmpeg/package.json        libs/ffmpeg/
COPY libs/transcript/package.json    libs/transcript/
COPY libs/keymoments/package.json    libs/keymoments/
COPY libs/edit-list/package.json     libs/edit-list/
COPY libs/editor-core/package.json   libs/editor-core/
COPY libs/provider/package.json      libs/provider/
COPY libs/publishing/package.json    libs/publishing/
COPY libs/ui/package.json            libs/ui/
COPY services/gateway/package.json   services/gateway/
COPY services/media/package.json     services/media/
COPY services/jobs/package.json      services/jobs/
COPY services/export/package.json    services/export/
COPY services/analytics/package.json services/analytics/
COPY apps/shell/package.json         apps/shell/
COPY apps/editor/package.json        apps/editor/
COPY apps/keyclips/package.json      apps/keyclips/
COPY apps/publish/package.json       apps/publish/
COPY apps/analytics/package.json     apps/analytics/
# `npm ci` when the lockfile passes its checks; otherwise `npm install` from the same lockfile
# (versions stay pinned; see "npm ci and the lockfile" in docker/README.md).
RUN --mount=type=cache,target=/root/.npm \
    npm ci || { echo "npm ci rejected package-lock.json: installing from it with npm install" >&2; npm install --no-save; }
COPY tsconfig.base.json nx.json .gitignore ./
# every library: the apps bundle them from their sources (libs/ui/build/rspack.app.js aliases)
COPY libs           libs
COPY apps           apps
# The development remotes.json (localhost:4201-4204) must not ship: the entrypoint writes the real one.
RUN npx nx run-many -t build --output-style=stream \
      -p @wordcut/ui @wordcut/web-shell @wordcut/web-editor @wordcut/web-keyclips @wordcut/web-publish @wordcut/web-analytics \
 && rm -f apps/shell/dist/remotes.json

# ---------------------------------------------------------------------------------------------
FROM ${NGINX_IMAGE} AS web
COPY docker/web/nginx.conf   /etc/nginx/nginx.conf
COPY docker/web/servers.conf /etc/nginx/wordcut/servers.conf
COPY docker/web/remote.conf  /etc/nginx/wordcut/remote.conf
COPY --chmod=0755 docker/web/entrypoint.sh /usr/local/bin/wordcut-web-entrypoint
COPY --from=build /app/apps/shell/dist     /usr/share/nginx/wordcut/shell
COPY --from=build /app/apps/editor/dist    /usr/share/nginx/wordcut/remotes/editor
COPY --from=build /app/apps/keyclips/dist  /usr/share/nginx/wordcut/remotes/keyclips
COPY --from=build /app/apps/publish/dist   /usr/share/nginx/wordcut/remotes/publish
COPY --from=build /app/apps/analytics/dist /usr/share/nginx/wordcut/remotes/analytics
# nginx's unprivileged user (numeric, so that Kubernetes can enforce runAsNonRoot)
USER 101:101
EXPOSE 4200 4201 4202 4203 4204
STOPSIGNAL SIGQUIT
HEALTHCHECK --interval=15s --timeout=5s --start-period=10s --retries=3 \
  CMD wget -q -O /dev/null http://127.0.0.1:4200/healthz || exit 1
ENTRYPOINT ["/usr/local/bin/wordcut-web-entrypoint"]
CMD ["nginx", "-g", "daemon off;"]
