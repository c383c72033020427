{{/*
Names
*/}}
{{- define "wordcut.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Release-wide prefix of every object name (at most 40 characters, so "-<component>" fits 63). */}}
{{- define "wordcut.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 40 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 40 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 40 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "wordcut.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
The five back-end services, in start order of their dependencies, and what each one uses
(webhook: PROVIDER_WEBHOOK_SECRET, the HMAC key of the provider's signed webhooks; session:
GATEWAY_SESSION_SECRET; provider: calls the provider's API or fetches its media; transcribes: sends
audio to the transcription service of config.transcription, with its settings and optional
TRANSCRIPTION_API_KEY; the gateway reads only its TRANSCRIPTION_URL). Every one uses NATS.
*/}}
{{- define "wordcut.services" -}}
gateway:   {db: true,  s3: true,  webhook: false, session: true,  provider: true,  transcribes: false}
media:     {db: false, s3: true,  webhook: false, session: false, provider: true,  transcribes: true}
jobs:      {db: true,  s3: false, webhook: false, session: false, provider: false, transcribes: false}
export:    {db: true,  s3: true,  webhook: true,  session: false, provider: true,  transcribes: false}
analytics: {db: true,  s3: false, webhook: false, session: false, provider: false, transcribes: false}
{{- end }}


{{/*
Labels. Call with (dict "root" $ "component" "gateway").
*/}}
{{- define "wordcut.labels" -}}
helm.sh/chart: {{ include "wordcut.chart" .root }}
{{ include "wordcut.selectorLabels" . }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
app.kubernetes.io/part-of: wordcut
{{- end }}

{{- define "wordcut.selectorLabels" -}}
app.kubernetes.io/name: {{ include "wordcut.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
{{- if .component }}
app.kubernetes.io/component: {{ .component }}
{{- end }}
{{- end }}

{{/*
Image of a component. Call with (dict "root" $ "image" .Values.gateway.image).
*/}}
{{- define "wordcut.image" -}}
{{- $tag := .image.tag | default .root.Values.image.tag | default .root.Chart.AppVersion | toString }}
{{- if .root.Values.image.registry }}
{{- printf "%s/%s:%s" (trimSuffix "/" .root.Values.image.registry) .image.repository $tag }}
{{- else }}
{{- printf "%s:%s" .image.repository $tag }}
{{- end }}
{{- end }}

{{- define "wordcut.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "wordcut.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* The Secret holding DATABASE_URL, the S3 keys, the webhook and gateway session secrets (and NATS's). */}}
{{- define "wordcut.secretName" -}}
{{- if .Values.secrets.existingSecret }}
{{- .Values.secrets.existingSecret }}
{{- else }}
{{- printf "%s-secrets" (include "wordcut.fullname" .) }}
{{- end }}
{{- end }}

{{/* The Secret holding the NATS credentials: secrets.natsExistingSecret, else the one above. */}}
{{- define "wordcut.natsSecretName" -}}
{{- .Values.secrets.natsExistingSecret | default (include "wordcut.secretName" .) }}
{{- end }}

{{/* Whether the chart renders the NATS credentials into its own Secret. */}}
{{- define "wordcut.natsCredentialsRendered" -}}
{{- if and (ne .Values.config.nats.auth "none") (not .Values.secrets.natsExistingSecret) (not .Values.secrets.existingSecret) }}true{{ end }}
{{- end }}

{{/*
NATS credentials of a service (config.nats.auth): userPassword = its own user
(<userPrefix>-<service>) and password (key <secrets.keys.natsPassword>_<SERVICE>), token = the one
shared NATS_TOKEN. Call with (dict "root" $ "svc" "gateway").
*/}}
{{- define "wordcut.natsEnv" -}}
{{- $secret := include "wordcut.natsSecretName" .root }}
{{- if eq .root.Values.config.nats.auth "userPassword" }}
- name: NATS_USER
  value: {{ include "wordcut.natsUser" . | quote }}
- name: NATS_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ $secret }}
      key: {{ include "wordcut.natsPasswordKey" . }}
{{- else if eq .root.Values.config.nats.auth "token" }}
- name: NATS_TOKEN
  valueFrom:
    secretKeyRef:
      name: {{ $secret }}
      key: {{ .root.Values.secrets.keys.natsToken }}
{{- end }}
{{- end }}

{{/* S3_ENDPOINT: the configured one, else the bundled MinIO, else none (AWS S3). */}}
{{- define "wordcut.s3Endpoint" -}}
{{- if .Values.config.s3.endpoint }}
{{- .Values.config.s3.endpoint }}
{{- else if .Values.minio.enabled }}
{{- printf "http://%s-minio:9000" (include "wordcut.fullname" .) }}
{{- end }}
{{- end }}

{{/* JetStream stream of the media commands: <NS>_MEDIA (libs/messaging streamName). */}}
{{- define "wordcut.mediaStream" -}}
{{- printf "%s_MEDIA" (upper .Values.config.nats.namespace) }}
{{- end }}

{{/* "true" when something other than .replicaCount sets the media replicas. */}}
{{- define "wordcut.mediaAutoscaled" -}}
{{- if or .Values.media.autoscaling.keda.enabled .Values.media.autoscaling.hpa.enabled }}true{{ end }}
{{- end }}

{{- define "wordcut.gatewayUpstream" -}}
{{- .Values.web.gatewayUpstream | default (printf "%s-gateway:%d" (include "wordcut.fullname" .) (int .Values.gateway.port)) }}
{{- end }}

{{/*
terminationGracePeriodSeconds of a component. Call with (dict "root" $ "c" .Values.media).
*/}}
{{- define "wordcut.gracePeriod" -}}
{{- add (int .c.preStopSleepSeconds) (div (int .c.shutdownTimeoutMs) 1000) (int .root.Values.terminationGraceMarginSeconds) 1 }}
{{- end }}

{{/*
Scheduling and pod metadata of a component: its own non-empty value, else the global one.
Call with (dict "root" $ "c" .Values.media).
*/}}
{{- define "wordcut.scheduling" -}}
{{- with (.c.nodeSelector | default .root.Values.nodeSelector) }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with (.c.tolerations | default .root.Values.tolerations) }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with (.c.affinity | default .root.Values.affinity) }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with (.c.topologySpreadConstraints | default .root.Values.topologySpreadConstraints) }}
topologySpreadConstraints:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end }}

{{/* Secret env var. Call with (dict "root" $ "name" "DATABASE_URL" "key" .Values.secrets.keys.databaseUrl). */}}
{{- define "wordcut.secretEnv" -}}
- name: {{ .name }}
  valueFrom:
    secretKeyRef:
      name: {{ include "wordcut.secretName" .root }}
      key: {{ .key }}
{{- end }}

{{/* Checks that fail the render early with a useful message. */}}
{{- define "wordcut.validate" -}}
{{- if not .Values.config.nats.url }}
{{- fail "config.nats.url is required (NATS with JetStream, e.g. nats://nats.nats.svc:4222)" }}
{{- end }}
{{- if not .Values.secrets.existingSecret }}
{{- if not .Values.secrets.databaseUrl }}
{{- fail "set secrets.existingSecret (a Secret with DATABASE_URL, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, PROVIDER_WEBHOOK_SECRET, GATEWAY_SESSION_SECRET and the NATS credentials) or secrets.databaseUrl, secrets.s3AccessKeyId, secrets.s3SecretAccessKey, secrets.providerWebhookSecret, secrets.gatewaySessionSecret and secrets.natsPassword<Service> (natsPasswordGateway, ...; or natsToken)" }}
{{- end }}
{{- if not (and .Values.secrets.s3AccessKeyId .Values.secrets.s3SecretAccessKey) }}
{{- fail "set secrets.s3AccessKeyId and secrets.s3SecretAccessKey, or secrets.existingSecret" }}
{{- end }}
{{- if lt (len (.Values.secrets.providerWebhookSecret | default "" | toString)) 32 }}
{{- fail "set secrets.providerWebhookSecret (the HMAC key of the provider's signed webhooks, at least 32 characters), or secrets.existingSecret" }}
{{- end }}
{{- if lt (len (.Values.secrets.gatewaySessionSecret | default "" | toString)) 32 }}
{{- fail "set secrets.gatewaySessionSecret (signs the gateway's session tokens and media URLs, at least 32 random characters, e.g. openssl rand -hex 32), or secrets.existingSecret" }}
{{- end }}
{{- end }}
{{- if include "wordcut.natsCredentialsRendered" . }}
{{- if eq .Values.config.nats.auth "userPassword" }}
{{- range $svc := list "gateway" "media" "jobs" "export" "analytics" }}
{{- if not (index $.Values.secrets (printf "natsPassword%s" (title $svc))) }}
{{- fail (printf "config.nats.auth is userPassword: set secrets.natsPassword%s (the NATS password of the service's own user), or secrets.natsExistingSecret / secrets.existingSecret with %s" (title $svc) (include "wordcut.natsPasswordKey" (dict "root" $ "svc" $svc))) }}
{{- end }}
{{- end }}
{{- end }}
{{- if and (eq .Values.config.nats.auth "token") (not .Values.secrets.natsToken) }}
{{- fail "config.nats.auth is token: set secrets.natsToken (the NATS server's token), or secrets.natsExistingSecret / secrets.existingSecret with NATS_TOKEN" }}
{{- end }}
{{- end }}
{{- if and .Values.media.autoscaling.keda.enabled (not .Values.media.autoscaling.keda.natsMonitoringEndpoint) }}
{{- fail "media.autoscaling.keda.natsMonitoringEndpoint is required with KEDA (host:port of the NATS monitoring endpoint, e.g. nats.nats.svc:8222)" }}
{{- end }}
{{- if gt (int .Values.media.autoscaling.minReplicas) (int .Values.media.autoscaling.maxReplicas) }}
{{- fail "media.autoscaling.minReplicas must not exceed maxReplicas" }}
{{- end }}
{{- if and .Values.ingress.enabled (eq (.Values.config.trustProxy | default "" | trim) "loopback") }}
{{- fail "ingress.enabled: set config.trustProxy to loopback and your ingress controller's pod CIDR (e.g. \"loopback, 10.244.0.0/16\"): with loopback alone every client counts as the ingress's address in the per-address limits" }}
{{- end }}
{{- end }}

{{/*
One egress rule of networkPolicy.egress (a {cidrs, to, ports} group): its peers are `cidrs` as
ipBlocks when set, else `to`. A rule never goes without peers (that would allow any address on its
ports): the render fails instead. Call with (dict "name" "nats" "rule" .Values.networkPolicy.egress.nats).
*/}}
{{- define "wordcut.egressRule" -}}
{{- $peers := list }}
{{- range $cidr := (.rule.cidrs | default list) }}
{{- $peers = append $peers (dict "ipBlock" (dict "cidr" $cidr)) }}
{{- end }}
{{- if not $peers }}
{{- $peers = .rule.to | default list }}
{{- end }}
{{- if not $peers }}
{{- fail (printf "networkPolicy.%s: set cidrs (e.g. [10.1.2.0/24]) or to (NetworkPolicy peers): a rule without peers would allow any address on its ports" .name) }}
{{- end }}
- ports:
    {{- toYaml .rule.ports | nindent 4 }}
  to:
    {{- toYaml $peers | nindent 4 }}
{{- end }}

{{/*
What each service does on NATS (libs/messaging/src/permissions.ts, NATS_USE; the chart check compares
the two): subjects it publishes or requests and subscribes to or serves (relative to the namespace),
the streams it provisions, its durable consumers [stream, durable, filter], and the streams whose
messages, consumer figures or MAX_DELIVERIES advisories it reads.
*/}}
{{- define "wordcut.natsUse" -}}
gateway:
  publish: ["jobs.requested.*", "jobs.events.completed", "media.ingest", "rpc.jobs.>", "rpc.media.>", "rpc.export.>", "rpc.analytics.>", "logs.errors.gateway"]
  subscribe: ["rpc.library.export-sources"]
  streams: [VIDEOS, MEDIA, DLQ, JOBS, EXPORT, LOGS]
  consumers:
    - [VIDEOS, gateway-ingest, "videos.ingest.>"]
    - [VIDEOS, gateway-renders, "videos.render.completed"]
    - [VIDEOS, gateway-keymoments, "videos.keymoments.found"]
    - [JOBS, gateway-job-failures, "jobs.events.failed"]
    - [JOBS, gateway-job-cancels, "jobs.events.cancelled"]
    - [DLQ, gateway-ingest-dlq, "dlq.media.ingest"]
    - [EXPORT, gateway-export-items, "export.events.item"]
  readsMessages: []
  readsConsumerInfo: [MEDIA]
  watchesMaxDeliveries: []
media:
  publish: ["jobs.events.started", "jobs.events.progress", "jobs.events.completed", "jobs.events.failed", "videos.>", "logs.errors.media"]
  subscribe: ["jobs.cancel.*", "rpc.media.probe", "rpc.media.waveform"]
  streams: [MEDIA, VIDEOS, JOBS, DLQ, LOGS]
  consumers:
    - [MEDIA, media-probe, "media.probe"]
    - [MEDIA, media-ingest, "media.ingest"]
    - [MEDIA, media-render, "media.render"]
    - [MEDIA, media-keymoments, "media.keymoments"]
  readsMessages: [JOBS, MEDIA]
  readsConsumerInfo: []
  watchesMaxDeliveries: [MEDIA]
jobs:
  publish: ["jobs.cancel.*", "jobs.events.failed", "jobs.events.cancelled", "media.probe", "media.render", "media.keymoments", "logs.errors.jobs"]
  subscribe: ["rpc.jobs.>"]
  streams: [JOBS, MEDIA, DLQ, LOGS]
  consumers:
    - [JOBS, jobs-requests, "jobs.requested.>"]
    - [JOBS, jobs-lifecycle, "jobs.events.>"]
    - [DLQ, jobs-dead-letters, "dlq.media.>"]
  readsMessages: [JOBS]
  readsConsumerInfo: []
  watchesMaxDeliveries: []
export:
  publish: ["export.run.*", "export.events.item", "export.webhooks.provider", "rpc.library.export-sources", "rpc.jobs.get", "logs.errors.export"]
  subscribe: ["rpc.export.>"]
  streams: [EXPORT, JOBS, DLQ, LOGS]
  consumers:
    - [EXPORT, export-run, "export.run.>"]
    - [EXPORT, export-webhooks, "export.webhooks.provider"]
    - [JOBS, export-render-completed, "jobs.events.completed"]
    - [JOBS, export-render-failed, "jobs.events.failed"]
    - [JOBS, export-render-cancelled, "jobs.events.cancelled"]
  readsMessages: [EXPORT]
  readsConsumerInfo: []
  watchesMaxDeliveries: []
analytics:
  publish: ["logs.errors.analytics"]
  subscribe: ["rpc.analytics.>"]
  streams: [JOBS, LOGS, DLQ]
  consumers:
    - [JOBS, analytics-job-events, "jobs.events.>"]
    - [JOBS, analytics-job-requests, "jobs.requested.>"]
    - [LOGS, analytics-error-logs, "logs.errors.>"]
  readsMessages: []
  readsConsumerInfo: []
  watchesMaxDeliveries: []
{{- end }}

{{/* NATS user of a service: <config.nats.userPrefix>-<service>. Call with (dict "root" $ "svc" "gateway"). */}}
{{- define "wordcut.natsUser" -}}
{{- printf "%s-%s" .root.Values.config.nats.userPrefix .svc }}
{{- end }}

{{/* Secret key of a service's NATS password: <secrets.keys.natsPassword>_<SERVICE>. Call as wordcut.natsUser. */}}
{{- define "wordcut.natsPasswordKey" -}}
{{- printf "%s_%s" .root.Values.secrets.keys.natsPassword (upper .svc) }}
{{- end }}

{{/*
One service's NATS permissions as JSON {publish, subscribe}: only its own subjects, dead letters of
what it consumes, its own streams and durables on the JetStream API, replies to its requests.
Call as wordcut.natsUser.
*/}}
{{- define "wordcut.natsPermissions" -}}
{{- $ns := .root.Values.config.nats.namespace }}
{{- $NS := upper $ns }}
{{- $u := index (include "wordcut.natsUse" .root | fromYaml) .svc }}
{{- $pub := list }}
{{- range $u.publish }}{{ $pub = append $pub (printf "%s.%s" $ns .) }}{{ end }}
{{- range $u.consumers }}{{ $pub = append $pub (printf "%s.dlq.%s" $ns (index . 2)) }}{{ end }}
{{- $pub = append $pub "$JS.API.INFO" }}
{{- range $s := $u.streams }}{{ range $op := list "INFO" "CREATE" "UPDATE" }}{{ $pub = append $pub (printf "$JS.API.STREAM.%s.%s_%s" $op $NS $s) }}{{ end }}{{ end }}
{{- range $u.consumers }}
{{- $sd := printf "%s_%s.%s" $NS (index . 0) (index . 1) }}
{{- $pub = concat $pub (list (printf "$JS.API.CONSUMER.INFO.%s" $sd) (printf "$JS.API.CONSUMER.CREATE.%s" $sd) (printf "$JS.API.CONSUMER.CREATE.%s.>" $sd) (printf "$JS.API.CONSUMER.DURABLE.CREATE.%s" $sd) (printf "$JS.API.CONSUMER.DELETE.%s" $sd) (printf "$JS.API.CONSUMER.MSG.NEXT.%s" $sd) (printf "$JS.ACK.%s.>" $sd)) }}
{{- end }}
{{- range $u.readsMessages }}{{ $pub = append $pub (printf "$JS.API.STREAM.MSG.GET.%s_%s" $NS .) }}{{ end }}
{{- range $u.readsConsumerInfo }}{{ $pub = append $pub (printf "$JS.API.CONSUMER.INFO.%s_%s.*" $NS .) }}{{ end }}
{{- $sub := list }}
{{- range $u.subscribe }}{{ $sub = append $sub (printf "%s.%s" $ns .) }}{{ end }}
{{- range $u.watchesMaxDeliveries }}{{ $sub = append $sub (printf "$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES.%s_%s.*" $NS .) }}{{ end }}
{{- $sub = append $sub "_INBOX.>" }}
{{- dict "publish" (uniq $pub) "subscribe" (uniq $sub) | toJson }}
{{- end }}
