{{/*
Names and labels.
*/}}
{{- define "notify.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "notify.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "notify.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Labels shared by every object; dict "root" $ "component" "gateway" adds the component. */}}
{{- define "notify.labels" -}}
helm.sh/chart: {{ include "notify.chart" .root }}
{{ include "notify.selectorLabels" . }}
app.kubernetes.io/part-of: notify
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
{{- end -}}

{{- define "notify.selectorLabels" -}}
app.kubernetes.io/name: {{ include "notify.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
{{- with .component }}
app.kubernetes.io/component: {{ . }}
{{- end }}
{{- end -}}

{{- define "notify.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "notify.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "notify.configMapName" -}}
{{- printf "%s-config" (include "notify.fullname" .) -}}
{{- end -}}

{{/* The Secret the pods read: existingSecret, or the one this chart renders from `secrets`. */}}
{{- define "notify.secretName" -}}
{{- if .Values.existingSecret -}}
{{- .Values.existingSecret -}}
{{- else -}}
{{- printf "%s-secrets" (include "notify.fullname" .) -}}
{{- end -}}
{{- end -}}

{{- define "notify.image" -}}
{{- $img := .svc.image | default dict -}}
{{- $repo := $img.repository | default (printf "%s/%s" (trimSuffix "/" .root.Values.image.repository) .svc.app) -}}
{{- $tag := $img.tag | default .root.Values.image.tag | default .root.Chart.AppVersion -}}
{{- printf "%s:%s" $repo (toString $tag) -}}
{{- end -}}

{{/*
An environment value as a string: YAML numbers arrive as float64 (25000 would print 2.5e+04
through toString), booleans as true/false.
*/}}
{{- define "notify.envValue" -}}
{{- if kindIs "invalid" . -}}
{{- else if kindIs "float64" . -}}
{{- if eq (floor .) . -}}{{- printf "%.0f" . -}}{{- else -}}{{- toString . -}}{{- end -}}
{{- else -}}
{{- toString . -}}
{{- end -}}
{{- end -}}

{{/*
ConfigMap data: every non-empty entry of `config`, same names, as strings. TRUST_PROXY left empty
follows the chart's exposure: one proxy hop (the ingress controller) when the Ingress is rendered.
CONSOLE_ENABLED left empty follows `console.enabled`.
*/}}
{{- define "notify.configData" -}}
{{- range $name, $value := .Values.config }}
{{- $s := include "notify.envValue" $value }}
{{- if and (eq $name "TRUST_PROXY") (eq $s "") }}
{{- $s = ternary "1" "false" $.Values.ingress.enabled }}
{{- end }}
{{- if and (eq $name "CONSOLE_ENABLED") (eq $s "") }}
{{- $s = ternary "true" "false" $.Values.console.enabled }}
{{- end }}
{{- if ne $s "" }}
{{ $name }}: {{ $s | quote }}
{{- end }}
{{- end }}
{{- end -}}

{{/* Secret data: every non-empty entry of `secrets`, base64-encoded. */}}
{{- define "notify.secretData" -}}
{{- range $name, $value := .Values.secrets }}
{{- $s := include "notify.envValue" $value }}
{{- if ne $s "" }}
{{ $name }}: {{ $s | b64enc | quote }}
{{- end }}
{{- end }}
{{- end -}}

{{/* The value a variable has in the pods, from config or secrets ("" when unset). */}}
{{- define "notify.setting" -}}
{{- $c := index .root.Values.config .name | default "" -}}
{{- $s := index .root.Values.secrets .name | default "" -}}
{{- include "notify.envValue" (ternary $s $c (eq (include "notify.envValue" $c) "")) -}}
{{- end -}}

{{/*
Deep merge: `over` wins key by key at every depth, including false and 0 (Sprig's mergeOverwrite
would drop those). Returns YAML.
*/}}
{{- define "notify.merge" -}}
{{- $out := deepCopy .base -}}
{{- range $k, $v := .over -}}
{{- $b := get $out $k -}}
{{- if and (kindIs "map" $v) (kindIs "map" $b) -}}
{{- $_ := set $out $k (include "notify.merge" (dict "base" $b "over" $v) | fromYaml) -}}
{{- else -}}
{{- $_ := set $out $k $v -}}
{{- end -}}
{{- end -}}
{{- toYaml $out -}}
{{- end -}}

{{/*
Every enabled service with its effective settings (defaults merged with its own keys), as YAML
{items: [...]}. Adds: key, group (services|senders), app (image and dist/apps/<app>), name (the
objects' name), graceSeconds, terminationGracePeriodSeconds, keda (effective, with enabled).
*/}}
{{- define "notify.services" -}}
{{- $root := . -}}
{{- $items := list -}}
{{- range $group := list "services" "senders" -}}
{{- range $key, $own := index $root.Values $group -}}
{{- $svc := include "notify.merge" (dict "base" $root.Values.defaults "over" ($own | default dict)) | fromYaml -}}
{{- if $svc.enabled -}}
{{- $app := $svc.app | default (ternary (printf "sender-%s" (kebabcase $key)) (kebabcase $key) (eq $group "senders")) -}}
{{- $_ := set $svc "key" $key -}}
{{- $_ := set $svc "group" $group -}}
{{- $_ := set $svc "app" $app -}}
{{- $_ := set $svc "name" (printf "%s-%s" (include "notify.fullname" $root) $app | trunc 63 | trimSuffix "-") -}}
{{- /* Graceful termination: preStop sleep, then SIGTERM and a drain of up to SHUTDOWN_GRACE_MS. */ -}}
{{- $env := $svc.env | default dict -}}
{{- $graceMs := include "notify.envValue" (get $env "SHUTDOWN_GRACE_MS" | default $root.Values.config.SHUTDOWN_GRACE_MS | default 25000) | int64 -}}
{{- $graceSeconds := div (add $graceMs 999) 1000 -}}
{{- $preStop := $svc.preStopSleepSeconds | int64 -}}
{{- $minimum := add $graceSeconds $preStop 1 -}}
{{- $tgps := $svc.terminationGracePeriodSeconds | default 0 | int64 -}}
{{- if eq $tgps 0 -}}
{{- $tgps = add $graceSeconds $preStop 10 -}}
{{- else if lt $tgps $minimum -}}
{{- fail (printf "%s.%s.terminationGracePeriodSeconds=%d must exceed SHUTDOWN_GRACE_MS (%d s) + preStopSleepSeconds (%d s)" $group $key $tgps $graceSeconds $preStop) -}}
{{- end -}}
{{- $_ := set $svc "graceSeconds" $graceSeconds -}}
{{- $_ := set $svc "terminationGracePeriodSeconds" $tgps -}}
{{- /* KEDA: the global keda block is the default; senders follow keda.enabled, others opt in. */ -}}
{{- $ownKeda := (($own | default dict).keda) | default dict -}}
{{- $keda := include "notify.merge" (dict "base" (omit $root.Values.keda "enabled") "over" (omit $ownKeda "enabled")) | fromYaml -}}
{{- $kedaOn := ternary $root.Values.keda.enabled false (eq $group "senders") -}}
{{- if hasKey $ownKeda "enabled" -}}{{- $kedaOn = $ownKeda.enabled -}}{{- end -}}
{{- $_ := set $keda "enabled" (and $kedaOn $svc.autoscaling.enabled (not (empty $svc.consumer))) -}}
{{- if and $kedaOn (empty $svc.consumer) -}}
{{- fail (printf "%s.%s: KEDA scales on consumer lag, but this service has no consumer (topic/group)" $group $key) -}}
{{- end -}}
{{- $_ := set $svc "keda" $keda -}}
{{- $min := $svc.autoscaling.minReplicas | default $svc.replicas | int64 -}}
{{- $_ := set $svc.autoscaling "minReplicas" $min -}}
{{- if and $svc.autoscaling.enabled (gt $min ($svc.autoscaling.maxReplicas | int64)) -}}
{{- fail (printf "%s.%s: autoscaling.minReplicas (or replicas) %d exceeds autoscaling.maxReplicas %d" $group $key $min ($svc.autoscaling.maxReplicas | int64)) -}}
{{- end -}}
{{- $items = append $items $svc -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- toYaml (dict "items" $items) -}}
{{- end -}}

{{/*
Checks that need more than the values schema: the cluster drivers and the endpoints they require.
*/}}
{{- define "notify.validate" -}}
{{- $c := .Values.config -}}
{{- range $name, $value := .Values.config -}}
{{- if and (ne (include "notify.envValue" $value) "") (ne (include "notify.envValue" (index $.Values.secrets $name | default "")) "") -}}
{{- fail (printf "%s is set in both config and secrets: keep it in one" $name) -}}
{{- end -}}
{{- end -}}
{{- if ne (toString $c.BUS_DRIVER) "kafka" -}}
{{- fail "config.BUS_DRIVER must be kafka in a cluster (the embedded bus lives inside one process: use the all-in-one service for that)" -}}
{{- end -}}
{{- if ne (toString $c.STORE_DRIVER) "mongodb" -}}
{{- fail "config.STORE_DRIVER must be mongodb in a cluster (the embedded store lives inside one process)" -}}
{{- end -}}
{{- if ne (toString $c.CACHE_DRIVER) "redis" -}}
{{- fail "config.CACHE_DRIVER must be redis in a cluster (embedded coordination lives inside one process)" -}}
{{- end -}}
{{- if eq (include "notify.setting" (dict "root" . "name" "KAFKA_BROKERS")) "" -}}
{{- fail "config.KAFKA_BROKERS is required (BUS_DRIVER=kafka): comma-separated host:port list" -}}
{{- end -}}
{{- if eq (include "notify.setting" (dict "root" . "name" "CLICKHOUSE_URL")) "" -}}
{{- fail "config.CLICKHOUSE_URL is required: the images carry no embedded ClickHouse engine" -}}
{{- end -}}
{{- if not .Values.existingSecret -}}
{{- if eq (include "notify.setting" (dict "root" . "name" "MONGODB_URI")) "" -}}
{{- fail "secrets.MONGODB_URI is required (STORE_DRIVER=mongodb), or name an existingSecret that holds it" -}}
{{- end -}}
{{- if eq (include "notify.setting" (dict "root" . "name" "REDIS_URL")) "" -}}
{{- fail "secrets.REDIS_URL is required (CACHE_DRIVER=redis), or name an existingSecret that holds it" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* Pod-level settings shared by Deployments and the migrations Job: security context, pull secrets. */}}
{{- define "notify.podCommon" -}}
{{- with .Values.podSecurityContext }}
securityContext:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}

{{/* envFrom: the ConfigMap and the Secret, same variable names as .env.example. */}}
{{- define "notify.envFrom" -}}
envFrom:
  - configMapRef:
      name: {{ .configMap }}
  - secretRef:
      name: {{ .secret }}
{{- end -}}

{{/* A service's own env overrides (env: {VAR: value}), which win over envFrom. */}}
{{- define "notify.envList" -}}
{{- if . }}
env:
{{- range $name, $value := . }}
  - name: {{ $name }}
    value: {{ include "notify.envValue" $value | quote }}
{{- end }}
{{- end }}
{{- end -}}

{{/* HPA resource metrics from autoscaling: CPU, and memory when its target is above 0. */}}
{{- define "notify.resourceMetrics" -}}
- type: Resource
  resource:
    name: cpu
    target:
      type: Utilization
      averageUtilization: {{ .targetCPUUtilizationPercentage }}
{{- if gt (.targetMemoryUtilizationPercentage | default 0 | int) 0 }}
- type: Resource
  resource:
    name: memory
    target:
      type: Utilization
      averageUtilization: {{ .targetMemoryUtilizationPercentage }}
{{- end }}
{{- end -}}

{{/* KAFKA_SASL_MECHANISM as KEDA's Kafka scaler names it ("" when SASL is off). */}}
{{- define "notify.kedaSasl" -}}
{{- $m := include "notify.setting" (dict "root" . "name" "KAFKA_SASL_MECHANISM") -}}
{{- if $m -}}
{{- get (dict "plain" "plaintext" "scram-sha-256" "scram_sha256" "scram-sha-512" "scram_sha512") $m | default $m -}}
{{- end -}}
{{- end -}}

{{- define "notify.kafkaTls" -}}
{{- has (lower (include "notify.setting" (dict "root" . "name" "KAFKA_SSL"))) (list "true" "1" "yes") -}}
{{- end -}}
