{{/* Release-scoped name prefix: "<release>-switchboard", or the release name when it already says so. */}}
{{- define "switchboard.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "switchboard.selectorLabels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "switchboard.labels" -}}
{{ include "switchboard.selectorLabels" . }}
app.kubernetes.io/part-of: switchboard
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{/* Labels of one component; call with (dict "root" $ "name" "dispatcher"). */}}
{{- define "switchboard.componentLabels" -}}
{{ include "switchboard.labels" .root }}
app.kubernetes.io/component: {{ .name }}
{{- end -}}

{{- define "switchboard.componentSelector" -}}
{{ include "switchboard.selectorLabels" .root }}
app.kubernetes.io/component: {{ .name }}
{{- end -}}

{{- define "switchboard.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "switchboard.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "switchboard.secretName" -}}
{{- default (printf "%s-env" (include "switchboard.fullname" .)) .Values.secret.existingSecret -}}
{{- end -}}

{{- define "switchboard.image" -}}
{{- printf "%s/%s:%s" .root.Values.image.registry .service (default .root.Chart.AppVersion .root.Values.image.tag) -}}
{{- end -}}

{{/*
The deployed components as YAML: name, the values key, role (gateway, worker or sim) and the port that
serves /healthz, /readyz and /metrics (the gateway's HTTP port, a worker's health port).
*/}}
{{- define "switchboard.components" -}}
components:
  - { name: api-gateway, key: apiGateway, role: gateway, portName: http, port: {{ .Values.apiGateway.port }} }
  - { name: dispatcher, key: dispatcher, role: worker, portName: health, port: {{ .Values.dispatcher.healthPort }} }
  - { name: webhook-delivery, key: webhookDelivery, role: worker, portName: health, port: {{ .Values.webhookDelivery.healthPort }} }
  - { name: voice-orchestrator, key: voiceOrchestrator, role: worker, portName: health, port: {{ .Values.voiceOrchestrator.healthPort }} }
{{- if .Values.carrierSim.enabled }}
  - { name: carrier-sim, key: carrierSim, role: sim, portName: http, port: {{ .Values.carrierSim.port }} }
{{- end }}
{{- end -}}

{{/* Trigger name of one BullMQ key: letters, digits and underscores, as KEDA's formula language wants. */}}
{{- define "switchboard.triggerName" -}}
{{- printf "%s_%s%s" (.queue | replace "-" "_") .state (ternary "" (printf "_p%v" .partition) (eq (toString .partition) "")) -}}
{{- end -}}

{{/*
The key prefix of every queue partition, as YAML, in the order of packages/queues/src/partitions.ts
(partitionPrefixes): one partition keeps queuePrefix; more put `:<index>` into its first hash tag, or after it
when it has none.
*/}}
{{- define "switchboard.partitionPrefixes" -}}
{{- $n := int .Values.queuePartitions -}}
{{- $base := .Values.queuePrefix -}}
{{- $out := list -}}
{{- if le $n 1 -}}
{{- $out = list $base -}}
{{- else -}}
{{- range $i := until $n -}}
{{- if regexMatch "^[^{]*\\{[^}]+\\}" $base -}}
{{- $out = append $out (regexReplaceAll "^([^{]*\\{)([^}]+)(\\}.*)$" $base (printf "${1}${2}:%d${3}" $i)) -}}
{{- else -}}
{{- $out = append $out (printf "%s:%d" $base $i) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- toYaml $out -}}
{{- end -}}

{{/*
V8's old-generation cap in MB for a container: three quarters of its memory limit, leaving the rest to the young
generation, code, Node itself and native buffers (docs/operations.md#memory). Call with the component's
resources; prints nothing when it has no memory limit (the image's default cap then applies).
*/}}
{{- define "switchboard.maxOldSpaceMb" -}}
{{- $limit := dig "limits" "memory" "" . | toString -}}
{{- if hasSuffix "Gi" $limit -}}
{{- div (mul (trimSuffix "Gi" $limit | atoi) 1024 3) 4 -}}
{{- else if hasSuffix "Mi" $limit -}}
{{- div (mul (trimSuffix "Mi" $limit | atoi) 3) 4 -}}
{{- else if $limit -}}
{{- fail (printf "resources.limits.memory %q: write it in Mi or Gi, so the chart can size the V8 heap from it (docs/operations.md#memory)" $limit) -}}
{{- end -}}
{{- end -}}
