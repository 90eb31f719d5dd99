{{/*
Names. Kubernetes names and label values stop at 63 characters, so every name is truncated there
and a trailing "-" left by the cut is removed.
*/}}
{{- define "svc-job.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/*
The release name is the Job name: spec §2.8 step 5 deletes "the previous Job with the release name".
*/}}
{{- define "svc-job.fullname" -}}
{{- default .Release.Name .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Claim <release>-data (domain notes: the job chart's PVC). */}}
{{- define "svc-job.claimName" -}}
{{- printf "%s-data" (include "svc-job.fullname" . | trunc 58 | trimSuffix "-") -}}
{{- end -}}

{{- define "svc-job.configName" -}}
{{- printf "%s-config" (include "svc-job.fullname" . | trunc 56 | trimSuffix "-") -}}
{{- end -}}

{{- define "svc-job.ubbagentConfigName" -}}
{{- printf "%s-ubbagent" (include "svc-job.fullname" . | trunc 54 | trimSuffix "-") -}}
{{- end -}}

{{- define "svc-job.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "svc-job.fullname" .) .Values.serviceAccount.name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "svc-job.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "svc-job.selectorLabels" -}}
app.kubernetes.io/name: {{ include "svc-job.name" . }}
app.kubernetes.io/instance: {{ .Release.Name | trunc 63 | trimSuffix "-" }}
{{- end -}}

{{- define "svc-job.labels" -}}
helm.sh/chart: {{ include "svc-job.chart" . }}
{{ include "svc-job.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | trunc 63 | trimSuffix "-" | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: svc
{{- end -}}

{{/* spec §9 rule 1: the digest, when set, pins the image and wins over the tag. */}}
{{- define "svc-job.image" -}}
{{- if .Values.image.digest -}}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest -}}
{{- else -}}
{{- printf "%s:%s" .Values.image.repository (toString .Values.image.tag) -}}
{{- end -}}
{{- end -}}

{{/* spec §9 rule 2: the metering agent can be pinned by digest. */}}
{{- define "svc-job.ubbagentImage" -}}
{{- if .Values.ubbagent.image.digest -}}
{{- printf "%s@%s" .Values.ubbagent.image.repository .Values.ubbagent.image.digest -}}
{{- else -}}
{{- printf "%s:%s" .Values.ubbagent.image.repository (toString .Values.ubbagent.image.tag) -}}
{{- end -}}
{{- end -}}

{{/* Domain notes: metric by mode, ubbagent.metricName is a hard override. */}}
{{- define "svc-job.metricName" -}}
{{- if .Values.ubbagent.metricName -}}
{{- .Values.ubbagent.metricName -}}
{{- else if eq .Values.config.runMode "deep" -}}
{{- .Values.ubbagent.metricNameDeep -}}
{{- else -}}
{{- .Values.ubbagent.metricNameStandard -}}
{{- end -}}
{{- end -}}

{{/* spec §5.1 rule 3: the audience equals the entitlement service address unless set. */}}
{{- define "svc-job.entitlementAudience" -}}
{{- default .Values.config.entitlementUrl .Values.config.entitlementAudience -}}
{{- end -}}

{{- define "svc-job.k8sTokenAudience" -}}
{{- default (include "svc-job.entitlementAudience" .) .Values.k8sToken.audience -}}
{{- end -}}

{{/*
Input and output roots as the runner sees them. PVC: the claim is mounted at /data and the
config paths apply. Cloudstore: the bucket is mounted at storage.cloudstore.mountPath; inputs are
<bucket>/<projectId>/01_sources and outputs <bucket>/<projectId>/results/<runId> (spec §2.8 step 8).
*/}}
{{- define "svc-job.inputRoot" -}}
{{- if eq .Values.storage.type "cloudstore" -}}
{{- .Values.storage.cloudstore.mountPath -}}
{{- else -}}
{{- .Values.config.inputPath -}}
{{- end -}}
{{- end -}}

{{- define "svc-job.outputRoot" -}}
{{- if eq .Values.storage.type "cloudstore" -}}
{{- printf "%s/%s/results" (.Values.storage.cloudstore.mountPath | trimSuffix "/") .Values.config.projectId -}}
{{- else -}}
{{- .Values.config.outputPath -}}
{{- end -}}
{{- end -}}

{{/*
The Job's affinity: the values' affinity, plus, for a ReadWriteOnce claim shared with a preflight
release, a required pod affinity to the preflight pod's node (a ReadWriteOnce volume attaches to one
node; docs/contracts/storage-layout.md). Printed as YAML, empty when there is none.
*/}}
{{- define "svc-job.affinity" -}}
{{- $affinity := deepCopy (.Values.affinity | default dict) -}}
{{- $pvc := .Values.storage.pvc -}}
{{- if and (eq .Values.storage.type "pvc") (eq $pvc.accessMode "ReadWriteOnce") $pvc.coLocateWithPreflight -}}
{{- $term := dict "labelSelector" (dict "matchLabels" (dict "app.kubernetes.io/name" "svc-preflight" "app.kubernetes.io/instance" $pvc.coLocateWithPreflight)) "topologyKey" "kubernetes.io/hostname" -}}
{{- $podAffinity := get $affinity "podAffinity" | default dict -}}
{{- $required := get $podAffinity "requiredDuringSchedulingIgnoredDuringExecution" | default list -}}
{{- $_ := set $podAffinity "requiredDuringSchedulingIgnoredDuringExecution" (append $required $term) -}}
{{- $_ := set $affinity "podAffinity" $podAffinity -}}
{{- end -}}
{{- if $affinity -}}
{{- toYaml $affinity -}}
{{- end -}}
{{- end -}}

{{/*
A Kubernetes quantity ("50Gi", "200G", "1.5Ti", "1000") as a plain number of bytes, printed
without exponent so two quantities compare numerically. Fails on a value that is no quantity.
*/}}
{{- define "svc-job.quantityBytes" -}}
{{- $q := toString . | trim -}}
{{- if not (regexMatch "^[0-9]+(\\.[0-9]+)?([KMGTPE]i|[kMGTPE])?$" $q) -}}
{{- fail (printf "%q is not a storage size (use a Kubernetes quantity such as 50Gi)" $q) -}}
{{- end -}}
{{- $number := regexReplaceAll "^([0-9.]+)([A-Za-z]*)$" $q "${1}" -}}
{{- $suffix := regexReplaceAll "^([0-9.]+)([A-Za-z]*)$" $q "${2}" -}}
{{- $factors := dict "" 1.0 "k" 1e3 "M" 1e6 "G" 1e9 "T" 1e12 "P" 1e15 "E" 1e18 "Ki" 1024.0 "Mi" 1048576.0 "Gi" 1073741824.0 "Ti" 1099511627776.0 "Pi" 1125899906842624.0 "Ei" 1152921504606846976.0 -}}
{{- printf "%.0f" (mulf (float64 $number) (get $factors $suffix)) -}}
{{- end -}}

{{/*
spec §7: a claim never shrinks between installs. Takes (dict "name" "requested" "existing");
"existing" is the storage request of the claim already in the cluster ("" when there is none).
*/}}
{{- define "svc-job.assertClaimNotShrunk" -}}
{{- if .existing -}}
{{- $requested := include "svc-job.quantityBytes" .requested | float64 -}}
{{- $existing := include "svc-job.quantityBytes" .existing | float64 -}}
{{- if lt $requested $existing -}}
{{- fail (printf "storage.pvc.size %s is smaller than the existing claim %s (%s): a claim cannot shrink. Set storage.pvc.size to %s or more, or delete the claim first (its data is lost)." (toString .requested) .name (toString .existing) (toString .existing)) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/*
Every rule the values schema cannot express, checked together so one render reports all problems.
*/}}
{{- define "svc-job.validate" -}}
{{- $problems := list -}}
{{- $v := .Values -}}
{{- if and $v.marketplace.enabled (not $v.ubbagent.enabled) -}}
{{- $problems = append $problems "ubbagent.enabled=false is not supported in a marketplace deployment (marketplace.enabled=true): every Job must run the metering sidecar (spec §2.7)" -}}
{{- end -}}
{{- if and (or $v.marketplace.enabled $v.ubbagent.enabled) (not (trim (toString $v.marketplace.reportingSecret))) -}}
{{- $problems = append $problems "marketplace.reportingSecret must name the reporting secret (keys consumer-id, entitlement-id, reporting-key); it must not be blank in a marketplace deployment (spec §2.7)" -}}
{{- end -}}
{{- if $v.ubbagent.enabled -}}
{{- $tag := trim (toString $v.ubbagent.image.tag) -}}
{{- if and (not $v.ubbagent.image.digest) (or (not $tag) (eq $tag "latest")) -}}
{{- $problems = append $problems (printf "ubbagent.enabled=true requires ubbagent.image.digest (sha256:<64 hex>) or a pinned ubbagent.image.tag other than latest: pin the metering agent image %s (its digest: skopeo inspect docker://%s:<version>, field Digest); a moving metering agent is not reproducible (spec §9 rule 2). Not a marketplace deployment? Add -f values-gke.yaml (marketplace.enabled=false, ubbagent.enabled=false)" $v.ubbagent.image.repository $v.ubbagent.image.repository) -}}
{{- end -}}
{{- end -}}
{{- if and (eq $v.storage.type "cloudstore") (not (trim (toString $v.storage.cloudstore.bucket))) -}}
{{- $problems = append $problems "storage.type=cloudstore requires storage.cloudstore.bucket (the bucket mounted by the GCS FUSE CSI driver)" -}}
{{- end -}}
{{- if and (gt (int $v.job.shards) 1) (eq $v.storage.type "pvc") (ne $v.storage.pvc.accessMode "ReadWriteMany") -}}
{{- $problems = append $problems (printf "job.shards=%d needs storage every pod can mount at once: a %s claim attaches to one node only; set storage.pvc.accessMode=ReadWriteMany (with a storage class that supports it) or storage.type=cloudstore" (int $v.job.shards) $v.storage.pvc.accessMode) -}}
{{- end -}}
{{- if $v.job.enabled -}}
{{- $missing := list -}}
{{- range $key := list "projectId" "runId" "entitlementUrl" -}}
{{- if not (trim (toString (get $v.config $key))) -}}
{{- $missing = append $missing (printf "config.%s" $key) -}}
{{- end -}}
{{- end -}}
{{- if $missing -}}
{{- $problems = append $problems (printf "job.enabled=true requires %s (set them in your values file or with --set)" (join ", " $missing)) -}}
{{- end -}}
{{- if eq $v.config.entitlementAuthMode "cloud" -}}
{{- if not (and $v.workloadIdentity.enabled (trim (toString $v.workloadIdentity.cloudServiceAccount))) -}}
{{- $problems = append $problems "config.entitlementAuthMode=cloud requires workloadIdentity.enabled=true and workloadIdentity.cloudServiceAccount (spec §5.1 rule 3)" -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- if $problems -}}
{{- fail (printf "\n  - %s" (join "\n  - " $problems)) -}}
{{- end -}}
{{- end -}}
