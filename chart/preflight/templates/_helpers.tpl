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

{{/*
The claim this pod and its Jobs share, named as packages/core/src/run-layout.ts dataClaimName
derives it: the job release's <jobRelease>-data (as the job chart names it, svc-job.claimName) when
jobRelease is set, else this release's own <release>-data (spec §2.7, §8: 20Gi on the chart's
defaults), so stage_inputs.sh and fetch_outputs.sh find it with --release <this release>.
*/}}
{{- define "svc-preflight.claimName" -}}
{{- printf "%s-data" (.Values.jobRelease | default .Release.Name | trunc 58 | trimSuffix "-") -}}
{{- end -}}

{{/* True (non-empty) when the chart creates its own claim: pvc mode without a job release. */}}
{{- define "svc-preflight.ownsClaim" -}}
{{- if and (eq .Values.storage.type "pvc") (not (trim .Values.jobRelease)) -}}true{{- end -}}
{{- end -}}

{{/* Launched Jobs run as the job chart's service account (workload identity is bound to it). */}}
{{- define "svc-preflight.runnerServiceAccount" -}}
{{- .Values.app.runnerServiceAccount | default .Values.jobRelease -}}
{{- end -}}

{{/* spec §9 rule 2: the metering agent is pinned; the digest wins over the tag. */}}
{{- define "svc-preflight.meteringImage" -}}
{{- $image := .Values.billing.image -}}
{{- if $image.digest -}}
{{- printf "%s@%s" $image.repository $image.digest -}}
{{- else -}}
{{- printf "%s:%s" $image.repository (toString $image.tag) -}}
{{- end -}}
{{- end -}}

{{/* The agent's config: the job release's ConfigMap <jobRelease>-ubbagent (svc-job.ubbagentConfigName) unless named. */}}
{{- define "svc-preflight.meteringConfigMap" -}}
{{- .Values.billing.configMap | default (printf "%s-ubbagent" (.Values.jobRelease | trunc 54 | trimSuffix "-")) -}}
{{- end -}}

{{/* The pod's selector labels as key=value,key=value (SVC_CO_LOCATE_WITH). */}}
{{- define "svc-preflight.selectorPairs" -}}
{{- $pairs := list -}}
{{- range $key, $value := include "svc-preflight.selectorLabels" . | fromYaml -}}
{{- $pairs = append $pairs (printf "%s=%s" $key $value) -}}
{{- end -}}
{{- join "," $pairs -}}
{{- end -}}

{{/* The runner settings passed into launched Jobs (docs/contracts/runner-env.md), blank ones left out, as YAML. */}}
{{- define "svc-preflight.runnerEnv" -}}
{{- $app := .Values.app -}}
{{- $env := dict
  "SVC_ENTITLEMENT_URL" $app.entitlementUrl
  "SVC_ENTITLEMENT_AUTH_MODE" $app.entitlementAuthMode
  "SVC_ENTITLEMENT_AUDIENCE" (default $app.entitlementUrl $app.entitlementAudience)
  "SVC_ENTITLEMENT_TIMEOUT_SEC" (toString $app.entitlementTimeoutSec)
  "SVC_CLOUD_REGION" $app.cloudRegion
  "SVC_CLOUD_LOCATION" $app.cloudLocation
  "SVC_DOCKING_MAX_COMPOUNDS" (ternary "" (toString $app.dockingMaxCompounds) (kindIs "invalid" $app.dockingMaxCompounds))
-}}
{{- range $key := keys $env | sortAlpha }}
{{- $value := toString (get $env $key) }}
{{- if $value }}
{{ $key }}: {{ $value | quote }}
{{- end }}
{{- end }}
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
{{- if eq .Values.storage.type "pvc" -}}
{{- if trim .Values.jobRelease -}}
{{- /* A shared claim keeps the job release's access mode: check the value against it. */ -}}
{{- $claimName := include "svc-preflight.claimName" . -}}
{{- $claim := lookup "v1" "PersistentVolumeClaim" .Release.Namespace $claimName | default dict -}}
{{- $modes := dig "spec" "accessModes" list $claim -}}
{{- if and $modes (not (has .Values.storage.pvc.accessMode $modes)) -}}
{{- $problems = append $problems (printf "storage.pvc.accessMode=%s but the claim %s is %s: set storage.pvc.accessMode to the claim's access mode (ReadWriteOnce co-locates Jobs with this pod; ReadWriteMany needs none)" .Values.storage.pvc.accessMode $claimName (join "," $modes)) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- if and (eq .Values.app.entitlementAuthMode "cloud") .Values.app.entitlementUrl (not (include "svc-preflight.runnerServiceAccount" .)) -}}
{{- $problems = append $problems "app.entitlementAuthMode=cloud needs the service account workload identity is bound to: set jobRelease (its service account) or app.runnerServiceAccount" -}}
{{- end -}}
{{- if .Values.billing.enabled -}}
{{- $tag := trim (toString .Values.billing.image.tag) -}}
{{- if and (not .Values.billing.image.digest) (or (not $tag) (eq $tag "latest")) -}}
{{- $problems = append $problems "billing.enabled=true requires billing.image.digest (sha256:<64 hex>) or a pinned billing.image.tag other than latest: launched Jobs run that metering agent (spec §9 rule 2)" -}}
{{- end -}}
{{- if not (trim .Values.billing.reportingSecret) -}}
{{- $problems = append $problems "billing.enabled=true requires billing.reportingSecret (keys consumer-id, entitlement-id, reporting-key)" -}}
{{- end -}}
{{- if not (or .Values.billing.configMap .Values.jobRelease) -}}
{{- $problems = append $problems "billing.enabled=true requires jobRelease (its <jobRelease>-ubbagent ConfigMap) or billing.configMap" -}}
{{- end -}}
{{- end -}}
{{- if and (gt (int .Values.replicaCount) 1) (eq .Values.storage.type "pvc") (eq .Values.storage.pvc.accessMode "ReadWriteOnce") -}}
{{- $problems = append $problems "replicaCount > 1 needs storage.pvc.accessMode=ReadWriteMany (or cloudstore): a ReadWriteOnce claim attaches to one node" -}}
{{- end -}}
{{- if $problems -}}
{{- fail (printf "\n  - %s" (join "\n  - " $problems)) -}}
{{- end -}}
{{- end -}}
