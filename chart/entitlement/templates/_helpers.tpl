{{- define "svc-entitlement.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "svc-entitlement.fullname" -}}
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

{{/* <fullname>-<suffix>, the fullname cut so the whole stays within 63 characters. */}}
{{- define "svc-entitlement.childName" -}}
{{- $suffix := index . 1 -}}
{{- printf "%s-%s" (include "svc-entitlement.fullname" (index . 0) | trunc (int (sub 62 (len $suffix))) | trimSuffix "-") $suffix -}}
{{- end -}}

{{- define "svc-entitlement.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "svc-entitlement.selectorLabels" -}}
app.kubernetes.io/name: {{ include "svc-entitlement.name" . }}
app.kubernetes.io/instance: {{ .Release.Name | trunc 63 | trimSuffix "-" }}
{{- end -}}

{{- define "svc-entitlement.labels" -}}
helm.sh/chart: {{ include "svc-entitlement.chart" . }}
{{ include "svc-entitlement.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | trunc 63 | trimSuffix "-" | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: svc
app.kubernetes.io/component: entitlement
{{- end -}}

{{- define "svc-entitlement.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "svc-entitlement.fullname" .) .Values.serviceAccount.name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "svc-entitlement.image" -}}
{{- if .Values.image.digest -}}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest -}}
{{- else -}}
{{- printf "%s:%s" .Values.image.repository (toString (default .Chart.AppVersion .Values.image.tag)) -}}
{{- end -}}
{{- end -}}

{{- define "svc-entitlement.databaseSecretName" -}}
{{- .Values.database.existingSecret | default (include "svc-entitlement.childName" (list . "db")) -}}
{{- end -}}

{{- define "svc-entitlement.signingSecretName" -}}
{{- .Values.signingKey.existingSecret | default (include "svc-entitlement.childName" (list . "signing-key")) -}}
{{- end -}}

{{- define "svc-entitlement.adminSecretName" -}}
{{- .Values.adminTokens.existingSecret | default (include "svc-entitlement.childName" (list . "admin")) -}}
{{- end -}}

{{/*
SVC_ADMIN_TOKENS (comma-separated), base64 for the secret's data, from (dict "tokens" "existing"):
explicit tokens win; otherwise the value in the cluster is kept; only a first install generates one.
*/}}
{{- define "svc-entitlement.adminTokensData" -}}
{{- if .tokens -}}
{{- join "," .tokens | b64enc -}}
{{- else if .existing -}}
{{- .existing -}}
{{- else -}}
{{- randAlphaNum 48 | b64enc -}}
{{- end -}}
{{- end -}}

{{/* The ConfigMap holding the trusted keys file, or "" when none is configured. */}}
{{- define "svc-entitlement.trustedKeysConfigMap" -}}
{{- if .Values.trustedKeys.existingConfigMap -}}
{{- .Values.trustedKeys.existingConfigMap -}}
{{- else if .Values.trustedKeys.json -}}
{{- include "svc-entitlement.childName" (list . "trusted-keys") -}}
{{- end -}}
{{- end -}}

{{/* The host of publicUrl (Ingress and HTTPRoute default). */}}
{{- define "svc-entitlement.publicHost" -}}
{{- (urlParse .Values.publicUrl).hostname -}}
{{- end -}}

{{- define "svc-entitlement.validate" -}}
{{- $problems := list -}}
{{- if not (trim .Values.publicUrl) -}}
{{- $problems = append $problems "publicUrl is required: the address callers use, the default token audience (SVC_PUBLIC_URL)" -}}
{{- end -}}
{{- if .Values.database.sqlite.enabled -}}
{{- if or .Values.database.url .Values.database.existingSecret -}}
{{- $problems = append $problems "database.sqlite.enabled=true keeps the ledger in SQLite: unset database.url and database.existingSecret" -}}
{{- end -}}
{{- if ne (int .Values.replicaCount) 1 -}}
{{- $problems = append $problems "database.sqlite.enabled=true needs replicaCount=1: one SQLite file on a ReadWriteOnce claim serves one pod (PostgreSQL for more)" -}}
{{- end -}}
{{- else if not (or (trim .Values.database.url) .Values.database.existingSecret) -}}
{{- $problems = append $problems "a PostgreSQL connection string is required: set database.url or database.existingSecret (or database.sqlite.enabled=true with replicaCount=1)" -}}
{{- end -}}
{{- if and .Values.database.url .Values.database.existingSecret -}}
{{- $problems = append $problems "set only one of database.url and database.existingSecret" -}}
{{- end -}}
{{- if not (or (trim .Values.signingKey.pem) .Values.signingKey.existingSecret) -}}
{{- $problems = append $problems "a seal signing key is required: set signingKey.pem or signingKey.existingSecret" -}}
{{- end -}}
{{- if and .Values.signingKey.pem (not (contains "PRIVATE KEY" .Values.signingKey.pem)) -}}
{{- $problems = append $problems "signingKey.pem must be a PEM private key (-----BEGIN PRIVATE KEY-----)" -}}
{{- end -}}
{{- if gt (int .Values.upload.timeoutMs) (int .Values.requestTimeoutMs) -}}
{{- $problems = append $problems "upload.timeoutMs must be at most requestTimeoutMs: an upload is one request (SVC_UPLOAD_TIMEOUT_MS <= SVC_REQUEST_TIMEOUT_MS)" -}}
{{- end -}}
{{- if and .Values.trustedKeys.json .Values.trustedKeys.existingConfigMap -}}
{{- $problems = append $problems "set only one of trustedKeys.json and trustedKeys.existingConfigMap" -}}
{{- end -}}
{{- if .Values.trustedKeys.json -}}
{{- /* fromJsonArray answers ["<parse error>"] for bad JSON: every entry must be a key object. */ -}}
{{- $keysOk := hasPrefix "[" (trim .Values.trustedKeys.json) -}}
{{- range fromJsonArray .Values.trustedKeys.json -}}
{{- if not (kindIs "map" .) -}}
{{- $keysOk = false -}}
{{- end -}}
{{- end -}}
{{- if not $keysOk -}}
{{- $problems = append $problems "trustedKeys.json must be a JSON array of public key objects (mounted as SVC_TRUSTED_KEYS_FILE)" -}}
{{- end -}}
{{- end -}}
{{- if and .Values.httpRoute.enabled (not .Values.httpRoute.parentRefs) -}}
{{- $problems = append $problems "httpRoute.enabled=true requires httpRoute.parentRefs (the Gateway to attach to)" -}}
{{- end -}}
{{- if $problems -}}
{{- fail (printf "\n  - %s" (join "\n  - " $problems)) -}}
{{- end -}}
{{- end -}}
