{{- define "svc-preflight.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* spec §2.7: Deployment and Service are named <release>-preflight (63 characters at most). */}}
{{- define "svc-preflight.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-preflight" .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{/* spec §2.6: the auth secret <release>-preflight-auth. */}}
{{- define "svc-preflight.authSecretName" -}}
{{- printf "%s-auth" (include "svc-preflight.fullname" . | trunc 58 | trimSuffix "-") -}}
{{- end -}}

{{/* The claim launched Jobs mount too: <SVC_APP_FULLNAME>-data. */}}
{{- define "svc-preflight.claimName" -}}
{{- printf "%s-data" (include "svc-preflight.fullname" . | trunc 58 | trimSuffix "-") -}}
{{- end -}}

{{- define "svc-preflight.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "svc-preflight.fullname" .) .Values.serviceAccount.name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "svc-preflight.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "svc-preflight.selectorLabels" -}}
app.kubernetes.io/name: {{ include "svc-preflight.name" . }}
app.kubernetes.io/instance: {{ .Release.Name | trunc 63 | trimSuffix "-" }}
{{- end -}}

{{- define "svc-preflight.labels" -}}
helm.sh/chart: {{ include "svc-preflight.chart" . }}
{{ include "svc-preflight.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | trunc 63 | trimSuffix "-" | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: svc
app.kubernetes.io/component: preflight
{{- end -}}

{{- define "svc-preflight.image" -}}
{{- if .Values.image.digest -}}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest -}}
{{- else -}}
{{- printf "%s:%s" .Values.image.repository (toString (default .Chart.AppVersion .Values.image.tag)) -}}
{{- end -}}
{{- end -}}

{{- define "svc-preflight.allowedNamespaces" -}}
{{- $namespaces := .Values.app.allowedNamespaces | default (list .Release.Namespace) -}}
{{- join "," (uniq $namespaces) -}}
{{- end -}}

{{/*
The K8S_API_TOKENS value (JSON array of {token}, spec §2.6), from (dict "authToken" "existing"):
an explicit app.authToken wins (it is how an operator rotates the token); otherwise the value
already in the cluster is kept, so upgrades never change the token behind the operator's back;
only a first install generates one. "existing" is the base64 value of the secret's key, or "".
Prints the base64 value for the secret's data.
*/}}
{{- define "svc-preflight.authTokensData" -}}
{{- if .authToken -}}
{{- list (dict "token" (toString .authToken)) | toJson | b64enc -}}
{{- else if .existing -}}
{{- .existing -}}
{{- else -}}
{{- list (dict "token" (randAlphaNum 48)) | toJson | b64enc -}}
{{- end -}}
{{- end -}}

{{- define "svc-preflight.validate" -}}
{{- $problems := list -}}
{{- if and (eq .Values.storage.type "cloudstore") (not (trim (toString .Values.storage.cloudstore.bucket))) -}}
{{- $problems = append $problems "storage.type=cloudstore requires storage.cloudstore.bucket" -}}
{{- end -}}
{{- if not (trim (toString .Values.app.runnerImage)) -}}
{{- $problems = append $problems "app.runnerImage must not be blank: pipeline launch needs SVC_RUNNER_IMAGE (spec §4.2 rule 1)" -}}
{{- end -}}
{{- if and (gt (int .Values.replicaCount) 1) (eq .Values.storage.type "pvc") (eq .Values.storage.pvc.accessMode "ReadWriteOnce") -}}
{{- $problems = append $problems "replicaCount > 1 needs storage.pvc.accessMode=ReadWriteMany (or cloudstore): a ReadWriteOnce claim attaches to one node" -}}
{{- end -}}
{{- if $problems -}}
{{- fail (printf "\n  - %s" (join "\n  - " $problems)) -}}
{{- end -}}
{{- end -}}
